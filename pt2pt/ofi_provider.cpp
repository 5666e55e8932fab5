// Discovery and choice of libfabric providers (pt2pt/ofi_provider.hpp). Facts relied on are in
// docs/platform-facts.md §5: which providers Debian's libfabric 1.17 offers for tagged RDM
// endpoints and why its shm provider cannot carry Weft's matching.
#include "pt2pt/ofi_provider.hpp"

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include <cstring>
#include <filesystem>
#include <utility>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "pt2pt/ofi_library.hpp"

namespace weft::ofi {
namespace {

// The auto rule's order: providers of hardware UCX does not drive first, then those UCX also
// serves (verbs, TCP). Providers not listed (sockets: 5-70 ms per message when ranks poll;
// udp;ofi_rxd) are used only when WEFT_OFI_PROVIDER names them.
constexpr const char* kPreferred[] = {"cxi", "opx", "psm3", "psm2", "efa", "verbs;ofi_rxm",
                                      "tcp;ofi_rxm"};
constexpr const char* kNativeFabrics[] = {"cxi", "opx", "psm3", "psm2", "efa"};

bool listed(const std::string& name, const auto& list) {
  for (const char* n : list)
    if (name == n) return true;
  return false;
}

// Tagged RDM endpoints whose completions carry an fi_context of Weft's (FI_CONTEXT), messages
// matched in the order sent (FI_ORDER_SAS, MPI's non-overtaking rule), buffers used without
// registration. FI_REMOTE_CQ_DATA is not asked for: shm and rxm then offer nothing
// (-FI_ENODATA), yet both carry fi_tsenddata's 8 bytes (domain_attr->cq_data_size).
fi_info* make_hints(const Library& lib, const char* provider) {
  fi_info* h = lib.dupinfo(nullptr);
  h->caps = FI_TAGGED;
  h->mode = FI_CONTEXT;
  h->ep_attr->type = FI_EP_RDM;
  h->tx_attr->msg_order = FI_ORDER_SAS;
  h->rx_attr->msg_order = FI_ORDER_SAS;
  h->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY;
  h->domain_attr->threading = FI_THREAD_DOMAIN;
  if (provider != nullptr) h->fabric_attr->prov_name = strdup(provider);
  return h;
}

int tag_bits(uint64_t format) { return format == 0 ? 64 : 64 - __builtin_clzll(format); }

std::string refusal(const fi_info& info) {
  const std::string name = info.fabric_attr->prov_name;
  if (name == "shm" || name.rfind("shm;", 0) == 0) {
    return "its tag matching is defective in libfabric 1.17 (FI_PEEK and FI_CLAIM consume the "
           "message; unexpected messages match a stale ignore mask); Weft's own shared-memory "
           "transport (WEFT_SHM) carries the ranks of a node";
  }
  if (tag_bits(info.ep_attr->mem_tag_format) < 64) {
    return "it matches " + std::to_string(tag_bits(info.ep_attr->mem_tag_format)) +
           " tag bits; Weft's match bits need 64";
  }
  if (info.domain_attr->cq_data_size < 8) {
    return "its completions carry " + std::to_string(info.domain_attr->cq_data_size) +
           " bytes of remote data; acknowledging synchronous sends needs 8";
  }
  return {};
}

Provider describe(const fi_info& info) {
  Provider p;
  p.name = info.fabric_attr->prov_name;
  p.domain = info.domain_attr->name != nullptr ? info.domain_attr->name : "";
  p.inject_size = info.tx_attr->inject_size;
  p.max_msg_size = info.ep_attr->max_msg_size;
  p.native_fabric = listed(p.name, kNativeFabrics);
  p.refused = refusal(info);
  return p;
}

}  // namespace

bool native_fabric_device_present() {
  namespace fs = std::filesystem;
  const std::pair<const char*, std::vector<const char*>> places[] = {
      {"/dev", {"cxi", "hfi1_"}}, {"/sys/class/infiniband", {"efa", "irdma", "hfi1"}}};
  std::error_code ec;
  for (const auto& [dir, prefixes] : places) {
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      for (const char* prefix : prefixes)
        if (name.rfind(prefix, 0) == 0) return true;
    }
  }
  return false;
}

Status provider_info(const std::string& name, fi_info** out) {
  *out = nullptr;
  std::string why;
  const Library* lib = library(&why);
  if (lib == nullptr) return Status::error(MPI_ERR_OTHER, why);
  // With RMA and atomics where the provider grants them (a reply lists only the capabilities
  // asked for), else with RMA, else tagged messages only; with device memory (FI_HMEM, whose
  // buffers must be registered: FI_MR_HMEM) first where this process can have device buffers.
  const uint64_t rma = FI_RMA | FI_ATOMIC;
  std::vector<uint64_t> tries = {rma, FI_RMA, 0};
  if (gpu::usable_device_memory() != nullptr) tries.insert(tries.begin(), rma | FI_HMEM);
  int rc = -FI_ENODATA;
  for (uint64_t extra : tries) {
    fi_info* hints = make_hints(*lib, name.c_str());
    hints->caps |= extra;
    if ((extra & FI_HMEM) != 0) hints->domain_attr->mr_mode |= FI_MR_HMEM;
    rc = lib->getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), nullptr, nullptr, 0, hints,
                      out);
    lib->freeinfo(hints);
    if (rc == 0 && *out != nullptr) break;
  }
  if (rc != 0 || *out == nullptr) {
    return Status::error(MPI_ERR_OTHER, "libfabric offers no provider '" + name +
                                            "' with tagged reliable-datagram endpoints (" +
                                            lib->strerror(-rc) + ")");
  }
  // A provider on IP (tcp, sockets) offers one domain per interface, loopback among them: peers
  // on other hosts could not reach that address. Loopback only when it is all there is (the
  // launcher sets FI_TCP_IFACE=lo for a job on one machine).
  fi_info* chosen = *out;
  for (fi_info* i = *out; i != nullptr; i = i->next) {
    if (i->domain_attr->name != nullptr && std::strcmp(i->domain_attr->name, "lo") != 0) {
      chosen = i;
      break;
    }
  }
  fi_info* one = lib->dupinfo(chosen);
  lib->freeinfo(*out);
  *out = one;
  return Status::success();
}

bool offers(const std::string& name, uint64_t cap) {
  const Library* lib = library();
  if (lib == nullptr) return false;
  fi_info* hints = make_hints(*lib, name.c_str());
  hints->caps |= cap;
  fi_info* infos = nullptr;
  const bool yes = lib->getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), nullptr, nullptr,
                                0, hints, &infos) == 0 &&
                   infos != nullptr && (infos->caps & cap) == cap;
  if (infos != nullptr) lib->freeinfo(infos);
  lib->freeinfo(hints);
  return yes;
}

std::vector<Provider> list_providers() {
  std::vector<Provider> all;
  const Library* lib = library();
  if (lib == nullptr) return all;
  fi_info* hints = make_hints(*lib, nullptr);
  fi_info* infos = nullptr;
  if (lib->getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), nullptr, nullptr, 0, hints,
                   &infos) == 0) {
    for (const fi_info* i = infos; i != nullptr; i = i->next) {
      Provider p = describe(*i);
      bool seen = false;
      for (const Provider& q : all) seen = seen || q.name == p.name;
      if (!seen) all.push_back(std::move(p));
    }
    lib->freeinfo(infos);
  }
  lib->freeinfo(hints);
  return all;
}

Status choose_provider(const std::string& requested, Provider* out, std::string* why) {
  const std::vector<Provider> all = list_providers();
  if (requested != "auto" && !requested.empty()) {
    for (const Provider& p : all) {
      if (p.name != requested) continue;
      if (!p.refused.empty()) {
        return Status::error(MPI_ERR_OTHER, "WEFT_OFI_PROVIDER=" + requested +
                                                ": Weft does not use this provider: " + p.refused);
      }
      *out = p;
      *why = "WEFT_OFI_PROVIDER=" + requested;
      return Status::success();
    }
    return Status::error(MPI_ERR_OTHER, "WEFT_OFI_PROVIDER=" + requested +
                                            ": libfabric offers no such provider with tagged "
                                            "reliable-datagram endpoints (weft_info lists them)");
  }
  for (const char* name : kPreferred) {
    for (const Provider& p : all) {
      if (p.name != name || !p.refused.empty()) continue;
      *out = p;
      *why = "the first usable of the preferred providers (cxi, opx, psm3, psm2, efa, "
             "verbs;ofi_rxm, tcp;ofi_rxm)";
      return Status::success();
    }
  }
  return Status::error(MPI_ERR_OTHER,
                       "libfabric offers none of the providers Weft picks by itself (cxi, opx, "
                       "psm3, psm2, efa, verbs;ofi_rxm, tcp;ofi_rxm); name one in "
                       "WEFT_OFI_PROVIDER (weft_info lists them)");
}

}  // namespace weft::ofi
