/* Every predefined C datatype sent contiguously: sizes, contents and MPI_Get_count. */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "check.h"

struct type_case {
  MPI_Datatype type;
  size_t size;
  const char* name;
};

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  const struct type_case cases[] = {
      {MPI_CHAR, sizeof(char), "CHAR"},
      {MPI_SIGNED_CHAR, sizeof(signed char), "SIGNED_CHAR"},
      {MPI_UNSIGNED_CHAR, sizeof(unsigned char), "UNSIGNED_CHAR"},
      {MPI_BYTE, 1, "BYTE"},
      {MPI_SHORT, sizeof(short), "SHORT"},
      {MPI_UNSIGNED_SHORT, sizeof(unsigned short), "UNSIGNED_SHORT"},
      {MPI_INT, sizeof(int), "INT"},
      {MPI_UNSIGNED, sizeof(unsigned), "UNSIGNED"},
      {MPI_LONG, sizeof(long), "LONG"},
      {MPI_UNSIGNED_LONG, sizeof(unsigned long), "UNSIGNED_LONG"},
      {MPI_LONG_LONG, sizeof(long long), "LONG_LONG"},
      {MPI_UNSIGNED_LONG_LONG, sizeof(unsigned long long), "UNSIGNED_LONG_LONG"},
      {MPI_FLOAT, sizeof(float), "FLOAT"},
      {MPI_DOUBLE, sizeof(double), "DOUBLE"},
      {MPI_LONG_DOUBLE, sizeof(long double), "LONG_DOUBLE"},
      {MPI_WCHAR, sizeof(wchar_t), "WCHAR"},
      {MPI_C_BOOL, sizeof(bool), "C_BOOL"},
      {MPI_INT8_T, 1, "INT8_T"},
      {MPI_INT16_T, 2, "INT16_T"},
      {MPI_INT32_T, 4, "INT32_T"},
      {MPI_INT64_T, 8, "INT64_T"},
      {MPI_UINT8_T, 1, "UINT8_T"},
      {MPI_UINT16_T, 2, "UINT16_T"},
      {MPI_UINT32_T, 4, "UINT32_T"},
      {MPI_UINT64_T, 8, "UINT64_T"},
      {MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), "C_FLOAT_COMPLEX"},
      {MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), "C_DOUBLE_COMPLEX"},
      {MPI_AINT, sizeof(MPI_Aint), "AINT"},
      {MPI_OFFSET, sizeof(MPI_Offset), "OFFSET"},
      {MPI_COUNT, sizeof(MPI_Count), "COUNT"},
  };
  const int ncases = (int)(sizeof cases / sizeof cases[0]);
  enum { kCount = 37 };
  unsigned char out[kCount * 16], in[kCount * 16];
  for (int c = 0; c < ncases; ++c) {
    int type_size = -1;
    MPI_Type_size(cases[c].type, &type_size);
    if ((size_t)type_size != cases[c].size) {
      fprintf(stderr, "MPI_%s: size %d, expected %zu\n", cases[c].name, type_size, cases[c].size);
      CHECK(0);
    }
    const size_t bytes = kCount * cases[c].size;
    for (size_t i = 0; i < bytes; ++i) out[i] = (unsigned char)(rank * 7 + c * 13 + i);
    memset(in, 0, sizeof in);
    MPI_Status st;
    MPI_Sendrecv(out, kCount, cases[c].type, right, c, in, kCount, cases[c].type, left, c,
                 MPI_COMM_WORLD, &st);
    for (size_t i = 0; i < bytes; ++i) CHECK(in[i] == (unsigned char)(left * 7 + c * 13 + i));
    int count = -1;
    MPI_Get_count(&st, cases[c].type, &count);
    CHECK(count == kCount);
    MPI_Get_elements(&st, cases[c].type, &count);
    CHECK(count == kCount);
  }
  /* A byte count that is not a whole number of elements gives MPI_UNDEFINED. */
  MPI_Status st;
  MPI_Sendrecv(out, 3, MPI_BYTE, right, 500, in, 16, MPI_BYTE, left, 500, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == MPI_UNDEFINED);
  MPI_Finalize();
  return 0;
}
