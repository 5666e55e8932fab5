! The hand-written parts of the Fortran glue, through `use mpi`: attributes (predefined ones read
! by value, user copy/delete callbacks written in Fortran, the predefined DUP/NULL procedures,
! the MPI-1 INTEGER forms), a Fortran error handler, a generalized request with Fortran
! callbacks, and MPI_COMM_SPAWN with a CHARACTER argv (the children are this program).
module fglue_callbacks
  use mpi
  implicit none
  integer :: copies = 0, deletes = 0, queries = 0, frees = 0, handled = 0
contains
  subroutine copy_fn(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    copies = copies + 1
    if (extra /= 42) stop 21
    val_out = val_in + 1
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine
  subroutine delete_fn(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierr = MPI_SUCCESS
  end subroutine
  subroutine handler(comm, code)
    integer :: comm, code
    handled = handled + 1
  end subroutine
  subroutine query_fn(extra, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    queries = queries + 1
    call MPI_Status_set_elements(status, MPI_INTEGER, int(extra), ierr)
    status(MPI_SOURCE) = 5
    status(MPI_TAG) = 6
    call MPI_Status_set_cancelled(status, .false., ierr)
  end subroutine
  subroutine free_fn(extra, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    frees = frees + 1
    ierr = MPI_SUCCESS
  end subroutine
  subroutine cancel_fn(extra, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    ierr = MPI_SUCCESS
  end subroutine
end module

program fglue
  use mpi
  use fglue_callbacks
  implicit none
  integer :: ierr, rank, np, keyval, key2, dup, dup2, eh, req, st(MPI_STATUS_SIZE), count
  integer :: old_keyval, old_value, parent, inter, errcodes(2)
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  character(len=32) :: arg
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  call MPI_Init(ierr)
  call MPI_Comm_get_parent(parent, ierr)
  if (parent /= MPI_COMM_NULL) then  ! a spawned child: check its argv, then leave
    call get_command_argument(1, arg)
    if (arg /= 'child') stop 30
    call get_command_argument(2, arg)
    if (arg /= 'two words') stop 31
    if (command_argument_count() /= 2) stop 32
    call MPI_Comm_disconnect(parent, ierr)
    call MPI_Finalize(ierr)
    stop
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! Predefined attributes read as values.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  if (.not. flag .or. val < 32767) stop 1
  call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, old_value, flag, ierr)
  if (.not. flag .or. old_value /= val) stop 2

  ! A keyval with Fortran callbacks: dup copies (value + 1), free deletes.
  extra = 42
  call MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 1000_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, val, flag, ierr)
  if (copies /= 1 .or. .not. flag .or. val /= 1001) stop 3
  call MPI_Comm_free(dup, ierr)
  if (deletes /= 1) stop 4
  ! The predefined procedures: DUP copies, NULL_COPY does not.
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, extra, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key2, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, old_keyval, 0, ierr)
  call MPI_Attr_put(MPI_COMM_WORLD, old_keyval, 99, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup2, ierr)
  call MPI_Comm_get_attr(dup2, key2, val, flag, ierr)
  if (.not. flag .or. val /= 7) stop 5
  call MPI_Attr_get(dup2, old_keyval, old_value, flag, ierr)
  if (flag) stop 6
  call MPI_Attr_get(MPI_COMM_WORLD, old_keyval, old_value, flag, ierr)
  if (.not. flag .or. old_value /= 99) stop 7
  call MPI_Comm_free(dup2, ierr)  ! dup2 had a copy of keyval's attribute too
  if (copies /= 2 .or. deletes /= 2) stop 8
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
  if (deletes /= 3) stop 8
  call MPI_Comm_free_keyval(keyval, ierr)
  if (keyval /= MPI_KEYVAL_INVALID) stop 9

  ! A Fortran error handler is called with the communicator and the code.
  call MPI_Comm_create_errhandler(handler, eh, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh, ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, np + 5, 0, MPI_COMM_WORLD, ierr)
  if (handled /= 1 .or. ierr == MPI_SUCCESS) stop 10
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  call MPI_Errhandler_free(eh, ierr)

  ! A generalized request whose status comes from a Fortran query function.
  extra = 3
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, req, ierr)
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, count, ierr)
  if (req /= MPI_REQUEST_NULL .or. queries /= 1 .or. frees /= 1) stop 11
  if (count /= 3 .or. st(MPI_SOURCE) /= 5 .or. st(MPI_TAG) /= 6) stop 12

  ! A request integer that names no request is an error, not the null request (Weft's choice:
  ! other implementations may crash, so only against Weft).
  call MPI_Get_library_version(version, count, ierr)
  if (index(version, 'Weft') > 0) then
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    req = 4242
    call MPI_Wait(req, st, ierr)
    call MPI_Error_class(ierr, count, old_value)
    if (count /= MPI_ERR_REQUEST .or. req /= 4242) stop 14
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  end if

  ! Spawn two children of this program with a CHARACTER argv (blank-terminated).
  call MPI_Comm_spawn(trim(command_name()), [character(len=12) :: 'child', 'two words', ' '], &
                      2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
  if (any(errcodes /= MPI_SUCCESS)) stop 13
  call MPI_Comm_disconnect(inter, ierr)
  if (rank == 0) print '(a)', 'fglue: ok'
  call MPI_Finalize(ierr)
contains
  function command_name()
    character(len=4096) :: command_name
    call get_command_argument(0, command_name)
  end function
end program
