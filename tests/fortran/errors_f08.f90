! Error handlers through `use mpi_f08`, with and without the optional ierror. With
! MPI_ERRORS_RETURN on a communicator, a wrong rank, count, tag, datatype and root each come back
! in ierror as a code of the right class (MPI_Error_class) with a message (MPI_Error_string,
! blank-padded past resultlen); left out, ierror is not written and the program goes on. A null
! communicator gives MPI_ERR_COMM. A handler written in Fortran (procedure
! MPI_Comm_errhandler_function) sees the communicator and the code, with or without ierror, and
! an error class, code and string of the program's own reach it through MPI_Comm_call_errhandler.
module errors_f08_log
  use mpi_f08
  implicit none
  integer :: calls = 0, last_code = 0
  type(MPI_Comm) :: last_comm

contains

  ! MPI_Comm_errhandler_function: counts the calls and keeps the last communicator and code.
  subroutine on_error(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    calls = calls + 1
    last_comm = comm
    last_code = code
  end subroutine on_error
end module errors_f08_log

program errors_f08
  use mpi_f08
  use errors_f08_log
  implicit none
  integer :: rank, n, ierr, cls, value, text_len, own_class, own_code
  type(MPI_Comm) :: comm
  type(MPI_Errhandler) :: eh, handler
  character(len=MPI_MAX_ERROR_STRING) :: text

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
  call expect_success(ierr, 'MPI_Comm_set_errhandler')
  call MPI_Comm_get_errhandler(comm, eh)
  call expect(eh == MPI_ERRORS_RETURN, 'MPI_Comm_get_errhandler gives MPI_ERRORS_RETURN')
  call MPI_Errhandler_free(eh)

  value = rank
  call MPI_Send(value, 1, MPI_INTEGER, n, 0, comm, ierr)
  call expect_class(ierr, MPI_ERR_RANK, 'MPI_Send to rank n')
  call MPI_Recv(value, 1, MPI_INTEGER, -7, 0, comm, MPI_STATUS_IGNORE, ierr)
  call expect_class(ierr, MPI_ERR_RANK, 'MPI_Recv from rank -7')
  call MPI_Send(value, -1, MPI_INTEGER, 0, 0, comm, ierr)
  call expect_class(ierr, MPI_ERR_COUNT, 'MPI_Send of count -1')
  call MPI_Send(value, 1, MPI_INTEGER, 0, -5, comm, ierr)
  call expect_class(ierr, MPI_ERR_TAG, 'MPI_Send with tag -5')
  call MPI_Send(value, 1, MPI_DATATYPE_NULL, 0, 0, comm, ierr)
  call expect_class(ierr, MPI_ERR_TYPE, 'MPI_Send of MPI_DATATYPE_NULL')
  call MPI_Bcast(value, 1, MPI_INTEGER, n, comm, ierr)
  call expect_class(ierr, MPI_ERR_ROOT, 'MPI_Bcast from root n')
  ! The same errors without ierror: nothing to write the code to, and the program goes on.
  call MPI_Send(value, 1, MPI_INTEGER, n, 0, comm)
  call MPI_Send(value, -1, MPI_INTEGER, 0, 0, comm)
  call MPI_Bcast(value, 1, MPI_INTEGER, n, comm)
  ! Still usable after the errors.
  call MPI_Allreduce(rank, value, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  call expect_success(ierr, 'MPI_Allreduce after the errors')
  call expect_eq(value, n * (n - 1) / 2, 'MPI_Allreduce after the errors')

  ! Errors on no communicator go to MPI_COMM_WORLD's or MPI_COMM_SELF's handler (by version).
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)
  call MPI_Comm_size(MPI_COMM_NULL, value, ierr)
  call expect_class(ierr, MPI_ERR_COMM, 'MPI_Comm_size of MPI_COMM_NULL')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)

  ! A handler written in Fortran, with and without ierror.
  call MPI_Comm_create_errhandler(on_error, handler, ierr)
  call expect_success(ierr, 'MPI_Comm_create_errhandler')
  call MPI_Comm_set_errhandler(comm, handler)
  last_comm = MPI_COMM_NULL
  call MPI_Send(value, 1, MPI_INTEGER, n + 3, 0, comm, ierr)
  call expect_eq(calls, 1, 'the Fortran handler is called once')
  call expect(last_comm == comm, 'the Fortran handler is given the communicator')
  call expect_eq(last_code, ierr, 'the Fortran handler is given the code the call returns')
  call expect_class(ierr, MPI_ERR_RANK, 'MPI_Send to rank n+3 under the Fortran handler')
  call MPI_Send(value, 1, MPI_INTEGER, n + 3, 0, comm)
  call expect_eq(calls, 2, 'the Fortran handler is called without ierror too')

  ! The program's own error class, code and string, raised with MPI_Comm_call_errhandler.
  call MPI_Add_error_class(own_class)
  call MPI_Add_error_code(own_class, own_code)
  call MPI_Add_error_string(own_code, 'weft test error', ierr)
  call expect_success(ierr, 'MPI_Add_error_string')
  call MPI_Comm_call_errhandler(comm, own_code)
  call expect_eq(calls, 3, 'MPI_Comm_call_errhandler calls the Fortran handler')
  call expect_eq(last_code, own_code, 'MPI_Comm_call_errhandler passes the code')
  call MPI_Error_class(own_code, cls)
  call expect_eq(cls, own_class, 'MPI_Error_class of an added code')
  call MPI_Error_string(own_code, text, text_len)
  call expect(text_len == 15 .and. text == 'weft test error', 'MPI_Error_string of an added code')
  call MPI_Errhandler_free(handler)
  call expect(handler == MPI_ERRHANDLER_NULL, 'MPI_Errhandler_free sets MPI_ERRHANDLER_NULL')
  call MPI_Comm_free(comm)

  call MPI_Barrier(MPI_COMM_WORLD)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'ferrors: ok, ', n, ' ranks: classes RANK, COUNT, TAG, ' &
    // 'TYPE, ROOT, COMM in ierror, strings, a Fortran handler, own class and string'
  call MPI_Finalize()

contains

  ! Stops the job unless `code` is an error of class `want` with a message.
  subroutine expect_class(code, want, what)
    integer, intent(in) :: code, want
    character(len=*), intent(in) :: what
    character(len=MPI_MAX_ERROR_STRING) :: message
    integer :: got, length
    call expect(code /= MPI_SUCCESS, what // ': ierror is not MPI_SUCCESS')
    call MPI_Error_class(code, got)
    call expect_eq(got, want, what // ': MPI_Error_class')
    message = repeat('#', MPI_MAX_ERROR_STRING)
    call MPI_Error_string(code, message, length, ierr)
    call expect_success(ierr, 'MPI_Error_string')
    call expect(length > 0 .and. length <= MPI_MAX_ERROR_STRING, what // ': message length')
    call expect(message(length + 1:) == ' ', what // ': message blank-padded past its length')
    call expect(len_trim(message) == length, what // ': message length is resultlen')
  end subroutine expect_class
end program errors_f08
