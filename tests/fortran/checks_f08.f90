! Checks shared by the `use mpi_f08` programs: a failed check prints what was expected on stderr
! and ends the whole job with MPI_Abort, so the run fails.
module checks_f08
  use mpi_f08
  implicit none
  private
  public :: expect, expect_eq, expect_success

contains

  ! Stops the job with `what` unless `ok`.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: rank
    if (ok) return
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    write (0, '(a, i0, 2a)') 'FAIL on rank ', rank, ': ', what
    flush (0)
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine expect

  ! Stops the job with `what`, the value and the one expected, unless they are equal.
  subroutine expect_eq(got, want, what)
    integer, intent(in) :: got, want
    character(len=*), intent(in) :: what
    character(len=80) :: values
    if (got == want) return
    write (values, '(a, i0, a, i0)') ': got ', got, ', expected ', want
    call expect(.false., what // trim(values))
  end subroutine expect_eq

  ! Stops the job unless an MPI call returned MPI_SUCCESS.
  subroutine expect_success(ierr, call_name)
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: call_name
    call expect_eq(ierr, MPI_SUCCESS, call_name // ' returned an error')
  end subroutine expect_success
end module checks_f08
