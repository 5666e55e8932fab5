! User reduction operations written in Fortran through `use mpi_f08` (procedure(MPI_User_function),
! type(c_ptr) buffers): a non-commutative one (2x2 integer matrix product mod 1009 on a contiguous
! derived type, three matrices a call) through reduce at two roots, allreduce, scan, exscan,
! reduce_scatter_block and MPI_Reduce_local, whose results must keep rank order; and a
! commutative one (x + y + 1 on DOUBLE PRECISION, so the result counts how often it was
! applied). The callbacks check the type(MPI_Datatype) they are given.
module userop_f08_ops
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_int, c_double
  use mpi_f08
  implicit none
  type(MPI_Datatype) :: matrix  ! four INTEGERs

contains

  ! The three matrices rank r contributes: [[1, r+i], [r, 1]] for i = 1..3 (no two commute).
  subroutine rank_matrices(r, m)
    integer, intent(in) :: r
    integer, intent(out) :: m(2, 2, 3)
    integer :: i
    do i = 1, 3
      m(:, :, i) = reshape([1, r, r + i, 1], [2, 2])
    end do
  end subroutine rank_matrices

  ! inout(:, :, i) = in(:, :, i) * inout(:, :, i) mod 1009.
  subroutine multiply(in, inout)
    integer, intent(in) :: in(:, :, :)
    integer, intent(inout) :: inout(:, :, :)
    integer :: i
    do i = 1, size(in, 3)
      inout(:, :, i) = mod(matmul(in(:, :, i), inout(:, :, i)), 1009)
    end do
  end subroutine multiply

  ! acc = M(0) * M(1) * ... * M(last), the matrices of ranks 0..last in rank order.
  subroutine product_upto(last, acc)
    integer, intent(in) :: last
    integer, intent(out) :: acc(2, 2, 3)
    integer :: r, next(2, 2, 3)
    call rank_matrices(0, acc)
    do r = 1, last
      call rank_matrices(r, next)
      call multiply(acc, next)
      acc = next
    end do
  end subroutine product_upto

  ! MPI_User_function: the matrix product, on `len` matrices.
  subroutine matrix_product(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer(c_int), pointer :: in(:, :, :), inout(:, :, :)
    call expect(datatype == matrix, 'matrix_product: given the matrix datatype')
    call c_f_pointer(invec, in, [2, 2, len])
    call c_f_pointer(inoutvec, inout, [2, 2, len])
    call multiply(in, inout)
  end subroutine matrix_product

  ! MPI_User_function: inoutvec(i) = invec(i) + inoutvec(i) + 1 on DOUBLE PRECISION.
  subroutine plus_one(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    real(c_double), pointer :: in(:), inout(:)
    call expect(datatype == MPI_DOUBLE_PRECISION, 'plus_one: given MPI_DOUBLE_PRECISION')
    call c_f_pointer(invec, in, [len])
    call c_f_pointer(inoutvec, inout, [len])
    inout = in + inout + 1
  end subroutine plus_one
end module userop_f08_ops

program userop_f08
  use mpi_f08
  use userop_f08_ops
  implicit none
  integer, parameter :: k = 3
  integer :: rank, n, r, j, root
  integer :: mine(2, 2, k), got(2, 2, k), want(2, 2, k)
  integer, allocatable :: columns(:, :, :)
  double precision :: x(2), y(2)
  type(MPI_Op) :: product_op, plus_op
  logical :: commutes

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  call MPI_Type_contiguous(4, MPI_INTEGER, matrix)
  call MPI_Type_commit(matrix)
  call MPI_Op_create(matrix_product, .false., product_op)
  call MPI_Op_commutative(product_op, commutes)
  call expect(.not. commutes, 'MPI_Op_commutative of a non-commutative op')

  call rank_matrices(rank, mine)
  call product_upto(n - 1, want)
  do root = 0, n - 1, max(n - 1, 1)
    got = -1
    call MPI_Reduce(mine, got, k, matrix, product_op, root, MPI_COMM_WORLD)
    if (rank == root) call expect(all(got == want), 'reduce with a non-commutative op')
  end do
  got = -1
  call MPI_Allreduce(mine, got, k, matrix, product_op, MPI_COMM_WORLD)
  call expect(all(got == want), 'allreduce with a non-commutative op')
  call MPI_Scan(mine, got, k, matrix, product_op, MPI_COMM_WORLD)
  call product_upto(rank, want)
  call expect(all(got == want), 'scan with a non-commutative op')
  call MPI_Exscan(mine, got, k, matrix, product_op, MPI_COMM_WORLD)
  call product_upto(rank - 1, want)
  if (rank > 0) call expect(all(got == want), 'exscan with a non-commutative op')

  ! Reduce_scatter_block: rank j receives the product over ranks of everyone's j-th matrices.
  allocate (columns(2, 2, 0:n - 1))
  do j = 0, n - 1
    call rank_matrices(rank + j, got)
    columns(:, :, j) = got(:, :, 1)
  end do
  call MPI_Reduce_scatter_block(columns, got, 1, matrix, product_op, MPI_COMM_WORLD)
  call rank_matrices(rank, want)
  do r = 1, n - 1
    call rank_matrices(r + rank, mine)
    call multiply(want(:, :, 1:1), mine(:, :, 1:1))
    want(:, :, 1) = mine(:, :, 1)
  end do
  call expect(all(got(:, :, 1) == want(:, :, 1)), 'reduce_scatter_block with a non-commutative op')

  ! Reduce_local: inoutbuf = inbuf op inoutbuf.
  call rank_matrices(1, mine)
  call rank_matrices(2, got)
  call MPI_Reduce_local(mine, got, k, matrix, product_op)
  call rank_matrices(2, want)
  call multiply(mine, want)
  call expect(all(got == want), 'MPI_Reduce_local with a non-commutative op')
  call MPI_Op_free(product_op)
  call expect(product_op == MPI_OP_NULL, 'MPI_Op_free sets MPI_OP_NULL')

  ! The commutative op, applied n-1 times by any reduction.
  call MPI_Op_create(plus_one, .true., plus_op)
  call MPI_Op_commutative(plus_op, commutes)
  call expect(commutes, 'MPI_Op_commutative of a commutative op')
  x = [dble(rank), 0.5d0]
  call MPI_Allreduce(x, y, 2, MPI_DOUBLE_PRECISION, plus_op, MPI_COMM_WORLD)
  call expect(y(1) == n * (n - 1) / 2 + (n - 1) .and. y(2) == 0.5d0 * n + (n - 1), &
              'allreduce with a commutative op')
  y = -1
  call MPI_Reduce(x, y, 2, MPI_DOUBLE_PRECISION, plus_op, n / 2, MPI_COMM_WORLD)
  if (rank == n / 2) call expect(y(1) == n * (n - 1) / 2 + (n - 1), 'reduce with a commutative op')
  call MPI_Op_free(plus_op)
  call MPI_Type_free(matrix)

  call MPI_Barrier(MPI_COMM_WORLD)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'fuserop: ok, ', n, &
    ' ranks: Fortran ops, non-commutative in rank order, commutative applied n-1 times'
  call MPI_Finalize()
end program userop_f08
