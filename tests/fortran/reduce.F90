! Reductions (mpif.h or `use mpi`) on the Fortran datatypes: INTEGER, REAL, DOUBLE PRECISION,
! COMPLEX, DOUBLE COMPLEX, LOGICAL (MPI_LAND/LOR/LXOR), the sized MPI_INTEGER2/INTEGER8/REAL4/
! REAL8 and the pair types of MPI_MAXLOC/MINLOC; then reduce, allreduce, reduce_scatter(_block),
! scan and exscan, each also with MPI_IN_PLACE. Inputs are chosen so that every result is exact.
program reduce
  use, intrinsic :: iso_fortran_env, only: int16, int64, real32, real64
#include "mpi_style.h"
  integer :: rank, n, ierr, i, r, sum_ranks, factorial, total, first
  integer :: ia, ib, iv(4), iw(4), pair(2), pair_out(2)
  real :: ra, rb
  double precision :: da, db, dpair(2), dpair_out(2)
  complex :: ca, cb
  double complex :: za, zb
  logical :: la(3), lb(3)
  integer(int16) :: sa, sb
  integer(int64) :: ka, kb
  real(real32) :: ya, yb
  real(real64) :: xa, xb
  integer, allocatable :: counts(:), vec(:), out(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  sum_ranks = n * (n - 1) / 2
  factorial = product((/ (i, i = 1, n) /))

  ! INTEGER: sum, product, max, min, bitwise or.
  ia = rank + 1
  call MPI_Allreduce(ia, ib, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect_eq(ib, sum_ranks + n, 'INTEGER MPI_SUM')
  call MPI_Allreduce(ia, ib, 1, MPI_INTEGER, MPI_PROD, MPI_COMM_WORLD, ierr)
  call expect_eq(ib, factorial, 'INTEGER MPI_PROD')
  call MPI_Allreduce(ia, ib, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect_eq(ib, n, 'INTEGER MPI_MAX')
  call MPI_Allreduce(ia, ib, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
  call expect_eq(ib, 1, 'INTEGER MPI_MIN')
  ia = 2**rank
  call MPI_Allreduce(ia, ib, 1, MPI_INTEGER, MPI_BOR, MPI_COMM_WORLD, ierr)
  call expect_eq(ib, 2**n - 1, 'INTEGER MPI_BOR')

  ! REAL, DOUBLE PRECISION, COMPLEX, DOUBLE COMPLEX.
  ra = rank + 0.5
  call MPI_Allreduce(ra, rb, 1, MPI_REAL, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(rb == n * n / 2.0, 'REAL MPI_SUM')
  da = -0.25d0 * rank
  call MPI_Allreduce(da, db, 1, MPI_DOUBLE_PRECISION, MPI_MIN, MPI_COMM_WORLD, ierr)
  call expect(db == -0.25d0 * (n - 1), 'DOUBLE PRECISION MPI_MIN')
  call MPI_Allreduce(da, db, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(db == -0.25d0 * sum_ranks, 'DOUBLE PRECISION MPI_SUM')
  ca = cmplx(rank, -2 * rank)
  call MPI_Allreduce(ca, cb, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(cb == cmplx(sum_ranks, -2 * sum_ranks), 'COMPLEX MPI_SUM')
  ca = (0.0, 1.0)
  call MPI_Allreduce(ca, cb, 1, MPI_COMPLEX, MPI_PROD, MPI_COMM_WORLD, ierr)
  call expect(cb == (0.0, 1.0)**n, 'COMPLEX MPI_PROD (i to the n)')
  za = dcmplx(1, rank)
  call MPI_Allreduce(za, zb, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(zb == dcmplx(n, sum_ranks), 'DOUBLE COMPLEX MPI_SUM')

  ! LOGICAL, element by element over three.
  la = (/ rank /= 1, rank == n - 1, .true. /)
  call MPI_Allreduce(la, lb, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call expect((lb(1) .eqv. n == 1) .and. (lb(2) .eqv. n == 1) .and. lb(3), 'LOGICAL MPI_LAND')
  call MPI_Allreduce(la, lb, 3, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call expect(lb(1) .and. lb(2) .and. lb(3), 'LOGICAL MPI_LOR')
  call MPI_Allreduce(la, lb, 3, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD, ierr)
  call expect((lb(2) .eqv. .true.) .and. (lb(3) .eqv. mod(n, 2) == 1), 'LOGICAL MPI_LXOR')

  ! Sized types: 2- and 8-byte integers, 4- and 8-byte reals.
  sa = int(rank, int16)
  call MPI_Allreduce(sa, sb, 1, MPI_INTEGER2, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(sb == sum_ranks, 'MPI_INTEGER2 MPI_SUM')
  ka = 2_int64**40 * (rank + 1)
  call MPI_Allreduce(ka, kb, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(kb == 2_int64**40 * (sum_ranks + n), 'MPI_INTEGER8 MPI_SUM past 32 bits')
  ya = -real(rank, real32)
  call MPI_Allreduce(ya, yb, 1, MPI_REAL4, MPI_MIN, MPI_COMM_WORLD, ierr)
  call expect(yb == -(n - 1), 'MPI_REAL4 MPI_MIN')
  xa = rank + 2d0**(-40)
  call MPI_Allreduce(xa, xb, 1, MPI_REAL8, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect(xb == n - 1 + 2d0**(-40), 'MPI_REAL8 MPI_MAX')

  ! MAXLOC on (value, rank) pairs: ties go to the lowest rank; MINLOC likewise.
  pair = (/ min(rank, 2), rank /)
  call MPI_Allreduce(pair, pair_out, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call expect(pair_out(1) == min(n - 1, 2) .and. pair_out(2) == min(n - 1, 2), &
              'MPI_2INTEGER MPI_MAXLOC')
  dpair = (/ dble(mod(rank + 1, 2)), dble(rank) /)
  call MPI_Allreduce(dpair, dpair_out, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call expect(dpair_out(1) == merge(0, 1, n > 1) .and. dpair_out(2) == merge(1, 0, n > 1), &
              'MPI_2DOUBLE_PRECISION MPI_MINLOC')

  ! Reduce to the last rank, then with the root's contribution in place.
  do i = 1, 4
    iv(i) = 10 * rank + i
  end do
  iw = -1
  call MPI_Reduce(iv, iw, 4, MPI_INTEGER, MPI_SUM, n - 1, MPI_COMM_WORLD, ierr)
  if (rank == n - 1) call expect(all(iw == (/ (10 * sum_ranks + n * i, i = 1, 4) /)), 'reduce')
  if (rank == n - 1) then
    call MPI_Reduce(MPI_IN_PLACE, iv, 4, MPI_INTEGER, MPI_MAX, n - 1, MPI_COMM_WORLD, ierr)
    call expect(all(iv == (/ (10 * (n - 1) + i, i = 1, 4) /)), 'reduce in place')
  else
    call MPI_Reduce(iv, iw, 4, MPI_INTEGER, MPI_MAX, n - 1, MPI_COMM_WORLD, ierr)
  end if

  ! Allreduce in place.
  da = 1.5d0 * rank
  call MPI_Allreduce(MPI_IN_PLACE, da, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(da == 1.5d0 * sum_ranks, 'allreduce in place')

  ! Reduce_scatter: rank r gets r+1 sums; then in place, its block at the start of the buffer.
  total = n * (n + 1) / 2
  allocate (counts(0:n - 1), vec(total), out(total))
  counts = (/ (r + 1, r = 0, n - 1) /)
  first = rank * (rank + 1) / 2
  vec = (/ (1000 * rank + i, i = 1, total) /)
  out = -1
  call MPI_Reduce_scatter(vec, out, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(all(out(1:rank + 1) == (/ (1000 * sum_ranks + n * (first + i), i = 1, rank + 1) /)), &
              'reduce_scatter')
  call MPI_Reduce_scatter(MPI_IN_PLACE, vec, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(all(vec(1:rank + 1) == out(1:rank + 1)), 'reduce_scatter in place')

  ! Reduce_scatter_block: two sums for every rank; in place likewise.
  vec(1:2 * n) = (/ (1000 * rank + i, i = 1, 2 * n) /)
  call MPI_Reduce_scatter_block(vec, out, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(all(out(1:2) == (/ (1000 * sum_ranks + n * (2 * rank + i), i = 1, 2) /)), &
              'reduce_scatter_block')
  call MPI_Reduce_scatter_block(MPI_IN_PLACE, vec, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect(all(vec(1:2) == out(1:2)), 'reduce_scatter_block in place')

  ! Inclusive and exclusive prefix sums of rank+1, then in place.
  ia = rank + 1
  call MPI_Scan(ia, ib, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect_eq(ib, (rank + 1) * (rank + 2) / 2, 'scan')
  call MPI_Scan(MPI_IN_PLACE, ia, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call expect_eq(ia, ib, 'scan in place')
  ia = rank + 1
  call MPI_Exscan(ia, ib, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call expect_eq(ib, rank * (rank + 1) / 2, 'exscan')
  call MPI_Exscan(MPI_IN_PLACE, ia, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call expect_eq(ia, ib, 'exscan in place')

  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'freduce: ok, ', n, &
    ' ranks: 12 Fortran types, reduce, allreduce, reduce_scatter(_block), (ex)scan, in place too'
  call MPI_Finalize(ierr)
end program reduce
