! PMPI interposition through `use mpi_f08`: pmpi_counter_f08.f90 defines the specific procedures
! behind MPI_Send and MPI_Barrier (MPI_Send_f08 or MPI_Send_f08ts, whichever the library's
! module calls, and MPI_Barrier_f08), counting their calls on to PMPI_Send and PMPI_Barrier. The
! messages still arrive, with and without ierror, and the counts match the calls made here; a
! direct PMPI_Send is not counted.
program counted_f08
  use mpi_f08
  use pmpi_counts_f08
  implicit none
  integer :: rank, nranks, left, right, i, ival, ierr
  double precision :: dout(2), din(2)
  type(MPI_Request) :: req

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)

  ! Two sends of an INTEGER (one with ierror) and one of two DOUBLE PRECISION to the right.
  do i = 1, 2
    call MPI_Irecv(ival, 1, MPI_INTEGER, left, i, MPI_COMM_WORLD, req)
    if (i == 1) then
      call MPI_Send(rank + i, 1, MPI_INTEGER, right, i, MPI_COMM_WORLD, ierr)
      call expect_success(ierr, 'the counted MPI_Send')
    else
      call MPI_Send(rank + i, 1, MPI_INTEGER, right, i, MPI_COMM_WORLD)
    end if
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    call expect_eq(ival, left + i, 'sent through the counted MPI_Send')
  end do
  dout = [rank + 0.25d0, -1d0 * rank]
  call MPI_Irecv(din, 2, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req)
  call MPI_Send(dout, 2, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call expect(din(1) == left + 0.25d0 .and. din(2) == -left, &
              'DOUBLE PRECISION through the counted MPI_Send')

  ! PMPI_Send itself is not counted.
  call MPI_Irecv(ival, 1, MPI_INTEGER, left, 4, MPI_COMM_WORLD, req)
  call PMPI_Send(rank, 1, MPI_INTEGER, right, 4, MPI_COMM_WORLD)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call expect_eq(ival, left, 'sent through PMPI_Send')

  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call expect_eq(barriers, 2, 'MPI_Barrier calls counted (MPI_Barrier_f08)')
  call expect_eq(sends, 3, 'MPI_Send calls counted (MPI_Send_f08 or MPI_Send_f08ts)')
  call PMPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write (*, '(a, i0, a)') 'fpmpi: ok, ', nranks, &
    ' ranks: MPI_SEND and MPI_BARRIER interposed, PMPI_ not'
  call MPI_Finalize()
end program counted_f08
