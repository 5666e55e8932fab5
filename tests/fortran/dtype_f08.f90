! Derived datatypes through `use mpi_f08`. A halo exchange on a 2-D array split in
! strips over a periodic ring: columns travel contiguous to the neighbours, rows (strided in
! Fortran) wrap round through a self Sendrecv with MPI_Type_vector, and two rows at once with a
! row type resized to one element. Then a Fortran derived type described by MPI_Get_address,
! MPI_Type_create_struct and MPI_Type_create_resized, sent whole and every other element, and
! one element by absolute addresses from and into MPI_BOTTOM. ierror is left out.
program dtype_f08
  use mpi_f08
  implicit none
  integer, parameter :: nx = 5, ny = 4, np = 6
  type particle
    sequence
    integer :: id
    double precision :: pos(3)
    real :: mass
    logical :: alive
    character(len=5) :: label
  end type particle
  double precision :: a(0:nx + 1, 0:ny + 1)
  integer :: rank, n, left, right, i, j, sizes(5), blocks(5), bytes, want_bytes
  type(MPI_Datatype) :: row, row1, ptype, ptype_raw, every_other, absolute_out, absolute_in
  type(MPI_Datatype) :: types(5)
  integer(kind=MPI_ADDRESS_KIND) :: base, next, displs(5), lb, extent, dextent
  type(particle) :: p(np), q(np)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  right = mod(rank + 1, n)
  left = mod(rank + n - 1, n)

  ! The strip: global columns rank*ny+1 .. rank*ny+ny, halo all round set to -1.
  a = -1
  do j = 1, ny
    do i = 1, nx
      a(i, j) = cell(i, rank * ny + j)
    end do
  end do
  ! Columns to the neighbours (contiguous).
  call MPI_Sendrecv(a(1, ny), nx, MPI_DOUBLE_PRECISION, right, 1, a(1, 0), nx, &
                    MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Sendrecv(a(1, 1), nx, MPI_DOUBLE_PRECISION, left, 2, a(1, ny + 1), nx, &
                    MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  ! Row nx wraps to halo row 0 with a vector type (one element every nx+2).
  call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, row)
  call MPI_Type_commit(row)
  call MPI_Sendrecv(a(nx, 1), 1, row, rank, 3, a(0, 1), 1, row, rank, 3, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  ! Row 1 wraps to halo row nx+1 with the row type resized to the extent of one element.
  call MPI_Type_get_extent(MPI_DOUBLE_PRECISION, lb, dextent)
  call MPI_Type_create_resized(row, 0_MPI_ADDRESS_KIND, dextent, row1)
  call MPI_Type_commit(row1)
  call MPI_Type_get_extent(row1, lb, extent)
  call expect(lb == 0 .and. extent == dextent, 'MPI_Type_get_extent of the resized row')
  call MPI_Sendrecv(a(1, 1), 1, row1, rank, 4, a(nx + 1, 1), 1, row1, rank, 4, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  do j = 1, ny
    do i = 0, nx + 1
      call expect(a(i, j) == cell(i, rank * ny + j), 'halo rows: a cell')
    end do
  end do
  do i = 1, nx
    call expect(a(i, 0) == cell(i, rank * ny), 'halo column from the left')
    call expect(a(i, ny + 1) == cell(i, rank * ny + ny + 1), 'halo column from the right')
  end do
  call expect(a(0, 0) == -1 .and. a(nx + 1, ny + 1) == -1, 'corners untouched')
  ! Rows 2 and 3 at once: two consecutive resized rows, sent to self into rows 0 and 1.
  a(0:1, 1:ny) = -1
  call MPI_Sendrecv(a(2, 1), 2, row1, rank, 5, a(0, 1), 2, row1, rank, 5, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call expect(all(a(0:1, 1:ny) == a(2:3, 1:ny)), 'two resized rows')
  call MPI_Type_free(row)
  call MPI_Type_free(row1)

  ! The struct type of `particle`, resized to the distance between two array elements.
  do i = 1, np
    p(i) = particle(100 * rank + i, [rank + 0.5d0, -1d0 * i, 3d0], 2.5 * i, mod(i, 2) == 0, &
                    achar(iachar('a') + rank) // 'bc' // achar(iachar('0') + i))
  end do
  call MPI_Get_address(p(1), base)
  call field_addresses(p(1), displs)
  call MPI_Get_address(p(2), next)
  displs = displs - base
  blocks = [1, 3, 1, 1, 5]
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_REAL, MPI_LOGICAL, MPI_CHARACTER]
  call MPI_Type_create_struct(5, blocks, displs, types, ptype_raw)
  call MPI_Type_create_resized(ptype_raw, 0_MPI_ADDRESS_KIND, next - base, ptype)
  call MPI_Type_commit(ptype)
  call MPI_Type_get_extent(ptype, lb, extent)
  call expect(lb == 0 .and. extent == next - base, 'the struct type spans one array element')
  do i = 1, 5
    call MPI_Type_size(types(i), sizes(i))
  end do
  want_bytes = sum(sizes * blocks)
  call MPI_Type_size(ptype, bytes)
  call expect_eq(bytes, want_bytes, 'MPI_Type_size of the struct type')

  ! The whole array to the right.
  q = particle(-1, [0d0, 0d0, 0d0], 0.0, .false., '?????')
  call MPI_Sendrecv(p, np, ptype, right, 6, q, np, ptype, left, 6, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  do i = 1, np
    call expect_particle(q(i), left, i)
  end do
  ! Elements 1, 3 and 5 through a vector of the struct type, received contiguous.
  call MPI_Type_vector(np / 2, 1, 2, ptype, every_other)
  call MPI_Type_commit(every_other)
  q = particle(-1, [0d0, 0d0, 0d0], 0.0, .false., '?????')
  call MPI_Sendrecv(p, 1, every_other, left, 7, q, np / 2, ptype, right, 7, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  do i = 1, np / 2
    call expect_particle(q(i), right, 2 * i - 1)
  end do
  call expect(q(np / 2 + 1)%id == -1, 'nothing past the three elements')
  call MPI_Type_free(every_other)
  ! Element 2 by the absolute addresses of its fields, sent from and received into MPI_BOTTOM.
  q = particle(-1, [0d0, 0d0, 0d0], 0.0, .false., '?????')
  call field_addresses(p(2), displs)
  call MPI_Type_create_struct(5, blocks, displs, types, absolute_out)
  call field_addresses(q(2), displs)
  call MPI_Type_create_struct(5, blocks, displs, types, absolute_in)
  call MPI_Type_commit(absolute_out)
  call MPI_Type_commit(absolute_in)
  call MPI_Sendrecv(MPI_BOTTOM, 1, absolute_out, right, 8, MPI_BOTTOM, 1, absolute_in, left, 8, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call expect_particle(q(2), left, 2)
  call expect(q(1)%id == -1 .and. q(3)%id == -1, 'MPI_BOTTOM: nothing but element 2 received')
  call MPI_Type_free(absolute_out)
  call MPI_Type_free(absolute_in)
  call MPI_Type_free(ptype)
  call MPI_Type_free(ptype_raw)

  call MPI_Barrier(MPI_COMM_WORLD)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a, i0, a)') 'fdtype: ok, ', n, &
    ' ranks: vector halo, resized rows, struct of a derived type (', want_bytes, &
    ' bytes), MPI_BOTTOM'
  call MPI_Finalize()

contains

  ! The addresses of the fields of x, in the order of `types`.
  subroutine field_addresses(x, addresses)
    type(particle), intent(in) :: x
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: addresses(5)
    call MPI_Get_address(x%id, addresses(1))
    call MPI_Get_address(x%pos, addresses(2))
    call MPI_Get_address(x%mass, addresses(3))
    call MPI_Get_address(x%alive, addresses(4))
    call MPI_Get_address(x%label, addresses(5))
  end subroutine field_addresses

  ! The value of global cell (i, j) of the periodic nx x (ny*n) grid.
  double precision function cell(i, j)
    integer, intent(in) :: i, j
    cell = 1000 * (1 + mod(i - 1 + nx, nx)) + 1 + mod(j - 1 + ny * n, ny * n)
  end function cell

  ! Stops the job unless `got` is element `i` of the array rank `from` filled.
  subroutine expect_particle(got, from, i)
    type(particle), intent(in) :: got
    integer, intent(in) :: from, i
    call expect(got%id == 100 * from + i, 'struct: id')
    call expect(all(got%pos == [from + 0.5d0, -1d0 * i, 3d0]), 'struct: pos')
    call expect(got%mass == 2.5 * i, 'struct: mass')
    call expect(got%alive .eqv. mod(i, 2) == 0, 'struct: alive')
    call expect(got%label == achar(iachar('a') + from) // 'bc' // achar(iachar('0') + i), &
                'struct: label')
  end subroutine expect_particle
end program dtype_f08
