! Checks shared by the mpif.h and `use mpi` programs: a failed check prints what was expected
! on stderr and ends the whole job with MPI_Abort, so the run fails.

! Stops the job with `what` unless `ok`.
subroutine expect(ok, what)
#include "mpi_style.h"
  logical, intent(in) :: ok
  character(len=*), intent(in) :: what
  integer :: rank, ierr
  if (ok) return
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  write (0, '(a, i0, 2a)') 'FAIL on rank ', rank, ': ', what
  flush (0)
  call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
end subroutine expect

! Stops the job with `what`, the value and the one expected, unless they are equal.
subroutine expect_eq(got, want, what)
#include "mpi_style.h"
  integer, intent(in) :: got, want
  character(len=*), intent(in) :: what
  character(len=80) :: values
  if (got == want) return
  write (values, '(a, i0, a, i0)') ': got ', got, ', expected ', want
  call expect(.false., what // trim(values))
end subroutine expect_eq

! Stops the job unless an MPI call returned MPI_SUCCESS.
subroutine expect_success(ierr, call_name)
#include "mpi_style.h"
  integer, intent(in) :: ierr
  character(len=*), intent(in) :: call_name
  call expect_eq(ierr, MPI_SUCCESS, call_name // ' returned an error')
end subroutine expect_success
