! User reduction operations written in Fortran (mpif.h or `use mpi`), made with MPI_Op_create:
! a non-commutative one (2x2 integer matrix product mod 1009 on a contiguous derived type, three
! matrices a call) through reduce at two roots, allreduce, scan, exscan, reduce_scatter_block
! and MPI_Reduce_local, whose results must keep rank order; and a commutative one (x + y + 1 on
! DOUBLE PRECISION, so the result counts how often it was applied). The callbacks check the
! datatype handle they are given.
program userop
#include "mpi_style.h"
  external :: matrix_product, plus_one
  integer, parameter :: k = 3
  integer :: rank, n, ierr, r, j, root, matrix, product_op, plus_op
  integer :: mine(2, 2, k), got(2, 2, k), want(2, 2, k)
  integer, allocatable :: columns(:, :, :)
  double precision :: x(2), y(2)
  logical :: commutes

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call MPI_Type_contiguous(4, MPI_INTEGER, matrix, ierr)
  call MPI_Type_commit(matrix, ierr)
  call MPI_Op_create(matrix_product, .false., product_op, ierr)
  call expect_success(ierr, 'MPI_Op_create')
  call MPI_Op_commutative(product_op, commutes, ierr)
  call expect(.not. commutes, 'MPI_Op_commutative of a non-commutative op')

  call rank_matrices(rank, mine)
  call product_upto(n - 1, want, matrix)

  do root = 0, n - 1, max(n - 1, 1)
    got = -1
    call MPI_Reduce(mine, got, k, matrix, product_op, root, MPI_COMM_WORLD, ierr)
    if (rank == root) call expect(all(got == want), 'reduce with a non-commutative op')
  end do
  got = -1
  call MPI_Allreduce(mine, got, k, matrix, product_op, MPI_COMM_WORLD, ierr)
  call expect(all(got == want), 'allreduce with a non-commutative op')
  call MPI_Scan(mine, got, k, matrix, product_op, MPI_COMM_WORLD, ierr)
  call product_upto(rank, want, matrix)
  call expect(all(got == want), 'scan with a non-commutative op')
  call MPI_Exscan(mine, got, k, matrix, product_op, MPI_COMM_WORLD, ierr)
  call product_upto(rank - 1, want, matrix)
  if (rank > 0) call expect(all(got == want), 'exscan with a non-commutative op')

  ! Reduce_scatter_block: rank j receives the product over ranks of everyone's j-th matrices.
  allocate (columns(2, 2, 0:n - 1))
  do j = 0, n - 1
    call rank_matrices(rank + j, got)
    columns(:, :, j) = got(:, :, 1)
  end do
  call MPI_Reduce_scatter_block(columns, got, 1, matrix, product_op, MPI_COMM_WORLD, ierr)
  call rank_matrices(rank, want)
  do r = 1, n - 1
    call rank_matrices(r + rank, mine)
    call matrix_product(want, mine, 1, matrix)
    want(:, :, 1) = mine(:, :, 1)
  end do
  call expect(all(got(:, :, 1) == want(:, :, 1)), 'reduce_scatter_block with a non-commutative op')

  ! Reduce_local: inoutbuf = inbuf op inoutbuf.
  call rank_matrices(1, mine)
  call rank_matrices(2, got)
  call MPI_Reduce_local(mine, got, k, matrix, product_op, ierr)
  call rank_matrices(2, want)
  call matrix_product(mine, want, k, matrix)
  call expect(all(got == want), 'MPI_Reduce_local with a non-commutative op')
  call MPI_Op_free(product_op, ierr)
  call expect(product_op == MPI_OP_NULL, 'MPI_Op_free sets MPI_OP_NULL')

  ! The commutative op, applied n-1 times by any reduction.
  call MPI_Op_create(plus_one, .true., plus_op, ierr)
  call MPI_Op_commutative(plus_op, commutes, ierr)
  call expect(commutes, 'MPI_Op_commutative of a commutative op')
  x = (/ dble(rank), 0.5d0 /)
  call MPI_Allreduce(x, y, 2, MPI_DOUBLE_PRECISION, plus_op, MPI_COMM_WORLD, ierr)
  call expect(y(1) == n * (n - 1) / 2 + (n - 1) .and. y(2) == 0.5d0 * n + (n - 1), &
              'allreduce with a commutative op')
  y = -1
  call MPI_Reduce(x, y, 2, MPI_DOUBLE_PRECISION, plus_op, n / 2, MPI_COMM_WORLD, ierr)
  if (rank == n / 2) call expect(y(1) == n * (n - 1) / 2 + (n - 1), 'reduce with a commutative op')
  call MPI_Op_free(plus_op, ierr)
  call MPI_Type_free(matrix, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'fuserop: ok, ', n, &
    ' ranks: Fortran ops, non-commutative in rank order, commutative applied n-1 times'
  call MPI_Finalize(ierr)
end program userop

! The three matrices rank r contributes: [[1, r+i], [r, 1]] for i = 1..3 (no two commute).
subroutine rank_matrices(r, m)
  implicit none
  integer, intent(in) :: r
  integer, intent(out) :: m(2, 2, 3)
  integer :: i
  do i = 1, 3
    m(:, :, i) = reshape((/ 1, r, r + i, 1 /), (/ 2, 2 /))
  end do
end subroutine rank_matrices

! acc = M(0) * M(1) * ... * M(last), the matrices of ranks 0..last in rank order.
subroutine product_upto(last, acc, matrix)
  implicit none
  integer, intent(in) :: last, matrix
  integer, intent(out) :: acc(2, 2, 3)
  integer :: r, next(2, 2, 3)
  call rank_matrices(0, acc)
  do r = 1, last
    call rank_matrices(r, next)
    call matrix_product(acc, next, 3, matrix)
    acc = next
  end do
end subroutine product_upto

! MPI_User_function: inoutvec(i) = invec(i) * inoutvec(i) mod 1009, for 2x2 integer matrices.
subroutine matrix_product(invec, inoutvec, len, datatype)
#include "mpi_style.h"
  integer, intent(in) :: len, datatype
  integer, intent(in) :: invec(2, 2, len)
  integer, intent(inout) :: inoutvec(2, 2, len)
  integer :: i, bytes, intsize, ierr
  call MPI_Type_size(datatype, bytes, ierr)
  call MPI_Type_size(MPI_INTEGER, intsize, ierr)
  call expect_eq(bytes, 4 * intsize, 'matrix_product: the size of the datatype it is given')
  do i = 1, len
    inoutvec(:, :, i) = mod(matmul(invec(:, :, i), inoutvec(:, :, i)), 1009)
  end do
end subroutine matrix_product

! MPI_User_function: inoutvec(i) = invec(i) + inoutvec(i) + 1 on DOUBLE PRECISION.
subroutine plus_one(invec, inoutvec, len, datatype)
#include "mpi_style.h"
  integer, intent(in) :: len, datatype
  double precision, intent(in) :: invec(len)
  double precision, intent(inout) :: inoutvec(len)
  call expect(datatype == MPI_DOUBLE_PRECISION, 'plus_one: given MPI_DOUBLE_PRECISION')
  inoutvec = invec + inoutvec + 1
end subroutine plus_one
