/* A preload library for tests: counts the UCX RMA calls a process makes (ucp_put_nbx,
 * ucp_get_nbx, ucp_ep_flush_nbx), passes each on to UCX, and at exit writes
 * "ucx_rma_counter: puts=P gets=G flushes=F" to stderr, so a test can tell which path one-sided
 * operations took. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void* (*transfer_fn)(void*, void*, size_t, uint64_t, void*, const void*);
typedef void* (*flush_fn)(void*, const void*);

static long puts_made, gets_made, flushes_made;

static void* next(const char* name) { return dlsym(RTLD_NEXT, name); }

void* ucp_put_nbx(void* ep, const void* buf, size_t n, uint64_t addr, void* key, const void* p) {
  ++puts_made;
  return ((transfer_fn)next("ucp_put_nbx"))(ep, (void*)buf, n, addr, key, p);
}

void* ucp_get_nbx(void* ep, void* buf, size_t n, uint64_t addr, void* key, const void* p) {
  ++gets_made;
  return ((transfer_fn)next("ucp_get_nbx"))(ep, buf, n, addr, key, p);
}

void* ucp_ep_flush_nbx(void* ep, const void* p) {
  ++flushes_made;
  return ((flush_fn)next("ucp_ep_flush_nbx"))(ep, p);
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "ucx_rma_counter: puts=%ld gets=%ld flushes=%ld\n", puts_made, gets_made,
          flushes_made);
}
