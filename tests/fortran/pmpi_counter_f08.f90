! A profiling layer for `use mpi_f08`: the specific procedures MPI_Send_f08 (buffers without type,
! kind and rank checks), MPI_Send_f08ts (TYPE(*), DIMENSION(..) buffers) and MPI_Barrier_f08 count
! their calls and go on to PMPI_Send and PMPI_Barrier (MPI 4.1 section 19.1.5).
module pmpi_counts_f08
  implicit none
  integer :: sends = 0, barriers = 0
end module pmpi_counts_f08

subroutine MPI_Send_f08(buf, count, datatype, dest, tag, comm, ierror)
  use mpi_f08, only: MPI_Datatype, MPI_Comm, PMPI_Send
  use pmpi_counts_f08, only: sends
  implicit none
  ! Passed by address whatever its type; declared a scalar INTEGER (never read) so that it goes on
  ! to PMPI_Send whether the library's buffers ignore type, kind and rank or are DIMENSION(..).
  integer, intent(in) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  sends = sends + 1
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_Send_f08

subroutine MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror)
  use mpi_f08, only: MPI_Datatype, MPI_Comm, PMPI_Send
  use pmpi_counts_f08, only: sends
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  sends = sends + 1
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_Send_f08ts

subroutine MPI_Barrier_f08(comm, ierror)
  use mpi_f08, only: MPI_Comm, PMPI_Barrier
  use pmpi_counts_f08, only: barriers
  implicit none
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  barriers = barriers + 1
  call PMPI_Barrier(comm, ierror)
end subroutine MPI_Barrier_f08
