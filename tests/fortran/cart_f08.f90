! Cartesian topology through `use mpi_f08`: MPI_Dims_create and MPI_Cart_create lay the ranks on
! a 2-D grid, periodic in the first dimension only; MPI_Cart_get, _coords, _rank, _shift and
! _sub are checked against each other, and a halo exchange with MPI_Sendrecv (a vector type for
! the strided rows) fills every halo cell from its neighbour, while at the non-periodic
! edges, where MPI_Cart_shift gives MPI_PROC_NULL, halos keep their sentinel and the status says
! MPI_PROC_NULL, MPI_ANY_TAG and count 0. ierror is left out.
program cart_f08
  use mpi_f08
  implicit none
  integer, parameter :: nx = 4, ny = 3, none = -1
  integer :: rank, n, me, i, j, r, count, ndims, topo
  type(MPI_Comm) :: grid, row_comm
  type(MPI_Datatype) :: row
  integer :: dims(2), coords(2), got_dims(2), got_coords(2), there(2)
  integer :: up, down, left, right
  type(MPI_Status) :: status
  logical :: periods(2), got_periods(2)
  double precision :: u(0:nx + 1, 0:ny + 1)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  dims = 0
  call MPI_Dims_create(n, 2, dims)
  call expect(dims(1) * dims(2) == n .and. dims(1) >= dims(2), 'MPI_Dims_create')
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., grid)
  call MPI_Topo_test(grid, topo)
  call expect_eq(topo, MPI_CART, 'MPI_Topo_test')
  call MPI_Cartdim_get(grid, ndims)
  call expect_eq(ndims, 2, 'MPI_Cartdim_get')
  call MPI_Comm_rank(grid, me)
  call MPI_Cart_coords(grid, me, 2, coords)
  call MPI_Cart_get(grid, 2, got_dims, got_periods, got_coords)
  call expect(all(got_dims == dims) .and. all(got_coords == coords), 'MPI_Cart_get dims, coords')
  call expect(got_periods(1) .and. .not. got_periods(2), 'MPI_Cart_get periods (LOGICAL)')
  call MPI_Cart_rank(grid, coords, r)
  call expect_eq(r, me, 'MPI_Cart_rank of my coordinates')
  there = [coords(1) + dims(1), coords(2)]  ! periodic: wraps to my own rank
  call MPI_Cart_rank(grid, there, r)
  call expect_eq(r, me, 'MPI_Cart_rank wraps a periodic coordinate')

  call MPI_Cart_shift(grid, 0, 1, up, down)
  call MPI_Cart_shift(grid, 1, 1, left, right)
  call expect_eq(up, rank_at(coords(1) - 1, coords(2)), 'MPI_Cart_shift periodic source')
  call expect_eq(down, rank_at(coords(1) + 1, coords(2)), 'MPI_Cart_shift periodic destination')
  call expect_eq(left, rank_at(coords(1), coords(2) - 1), 'MPI_Cart_shift source')
  call expect_eq(right, rank_at(coords(1), coords(2) + 1), 'MPI_Cart_shift destination')

  ! The halo exchange.
  u = none
  do j = 1, ny
    do i = 1, nx
      u(i, j) = value_at(coords(1) * nx + i, coords(2) * ny + j)
    end do
  end do
  call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, row)
  call MPI_Type_commit(row)
  call MPI_Sendrecv(u(nx, 1), 1, row, down, 1, u(0, 1), 1, row, up, 1, grid, status)
  call MPI_Sendrecv(u(1, 1), 1, row, up, 2, u(nx + 1, 1), 1, row, down, 2, grid, status)
  call MPI_Sendrecv(u(1, ny), nx, MPI_DOUBLE_PRECISION, right, 3, u(1, 0), nx, &
                    MPI_DOUBLE_PRECISION, left, 3, grid, status)
  call expect_from(left)
  call MPI_Sendrecv(u(1, 1), nx, MPI_DOUBLE_PRECISION, left, 4, u(1, ny + 1), nx, &
                    MPI_DOUBLE_PRECISION, right, 4, grid, status)
  call expect_from(right)
  do j = 0, ny + 1
    do i = 0, nx + 1
      if ((i == 0 .or. i == nx + 1) .and. (j == 0 .or. j == ny + 1)) then
        call expect(u(i, j) == none, 'halo corners are not exchanged')
      else if ((j == 0 .and. left == MPI_PROC_NULL) .or. &
               (j == ny + 1 .and. right == MPI_PROC_NULL)) then
        call expect(u(i, j) == none, 'an edge halo keeps its sentinel')
      else
        call expect(u(i, j) == value_at(modulo(coords(1) * nx + i - 1, dims(1) * nx) + 1, &
                                         coords(2) * ny + j), 'a halo cell')
      end if
    end do
  end do
  call MPI_Type_free(row)

  ! The grid's rows as communicators: every rank of mine has my first coordinate.
  call MPI_Cart_sub(grid, [.false., .true.], row_comm)
  call MPI_Comm_size(row_comm, r)
  call expect_eq(r, dims(2), 'MPI_Cart_sub: the size of a row')
  call MPI_Allreduce(coords(1), i, 1, MPI_INTEGER, MPI_MAX, row_comm)
  call expect_eq(i, coords(1), 'MPI_Cart_sub: one first coordinate in a row')
  call MPI_Comm_free(row_comm)
  call MPI_Comm_free(grid)

  call MPI_Barrier(MPI_COMM_WORLD)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a, i0, a, i0, a)') 'fcart: ok, ', n, ' ranks as ', dims(1), &
    ' x ', dims(2), ', halos from neighbours and MPI_PROC_NULL edges'
  call MPI_Finalize()

contains

  ! The rank at grid coordinates (i, j): periodic in i; MPI_PROC_NULL off the grid in j.
  integer function rank_at(i, j)
    integer, intent(in) :: i, j
    if (j < 0 .or. j >= dims(2)) then
      rank_at = MPI_PROC_NULL
    else
      rank_at = modulo(i, dims(1)) * dims(2) + j
    end if
  end function rank_at

  double precision function value_at(gi, gj)
    integer, intent(in) :: gi, gj
    value_at = 1000 * gi + gj
  end function value_at

  ! After a Sendrecv from `source`: from MPI_PROC_NULL the status is empty; else it names source.
  subroutine expect_from(source)
    integer, intent(in) :: source
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count)
    if (source == MPI_PROC_NULL) then
      call expect(status%MPI_SOURCE == MPI_PROC_NULL .and. status%MPI_TAG == MPI_ANY_TAG &
                  .and. count == 0, 'the status of a receive from MPI_PROC_NULL')
    else
      call expect(status%MPI_SOURCE == source .and. count == nx, 'the status of a halo receive')
    end if
  end subroutine expect_from
end program cart_f08
