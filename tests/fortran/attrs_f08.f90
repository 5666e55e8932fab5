! Attribute caching through `use mpi_f08`: MPI_TAG_UB through MPI_Comm_get_attr; keyvals with
! the predefined MPI_COMM_DUP_FN and MPI_COMM_NULL_COPY_FN and with copy and delete callbacks
! written in Fortran (procedure MPI_Comm_copy_attr_function, MPI_Comm_delete_attr_function),
! followed through MPI_Comm_dup, MPI_Comm_delete_attr and MPI_Comm_free.
module attrs_f08_callbacks
  use mpi_f08
  implicit none
  integer :: deletes = 0, own_key = MPI_KEYVAL_INVALID
  integer(kind=MPI_ADDRESS_KIND) :: deleted_value = 0

contains

  ! The copy gets the value plus extra_state.
  subroutine copy_plus_extra(oldcomm, keyval, extra_state, value_in, value_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, value_in, value_out
    logical :: flag
    integer :: size
    call expect_eq(keyval, own_key, 'the copy callback is given its keyval')
    call MPI_Comm_size(oldcomm, size, ierror)
    call expect_success(ierror, 'MPI_Comm_size of the communicator given to the copy callback')
    value_out = value_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine copy_plus_extra

  ! Counts the calls and keeps the value deleted.
  subroutine note_delete(comm, keyval, value, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: value, extra_state
    call expect(extra_state == 100, 'the delete callback is given extra_state')
    call expect_eq(keyval, own_key, 'the delete callback is given its keyval')
    call expect(comm /= MPI_COMM_NULL, 'the delete callback is given the communicator')
    deletes = deletes + 1
    deleted_value = value
    ierror = MPI_SUCCESS
  end subroutine note_delete
end module attrs_f08_callbacks

program attrs_f08
  use mpi_f08
  use attrs_f08_callbacks
  implicit none
  integer :: rank, ierr, dup_key, null_key
  type(MPI_Comm) :: comm, copy
  integer(kind=MPI_ADDRESS_KIND) :: value, no_state
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  no_state = 0
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, value, flag)
  call expect(flag .and. value >= 32767, 'MPI_Comm_get_attr(MPI_TAG_UB)')

  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dup_key, no_state)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, null_key, no_state)
  call MPI_Comm_create_keyval(copy_plus_extra, note_delete, own_key, 100_MPI_ADDRESS_KIND, ierr)
  call expect_success(ierr, 'MPI_Comm_create_keyval with Fortran callbacks')
  call MPI_Comm_set_attr(comm, dup_key, 42_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, null_key, 43_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(comm, own_key, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_get_attr(comm, own_key, value, flag)
  call expect(flag .and. value == 5, 'MPI_Comm_get_attr of a value just set')

  call MPI_Comm_dup(comm, copy)
  call MPI_Comm_get_attr(copy, dup_key, value, flag)
  call expect(flag .and. value == 42, 'MPI_COMM_DUP_FN copies the value')
  call MPI_Comm_get_attr(copy, null_key, value, flag)
  call expect(.not. flag, 'MPI_COMM_NULL_COPY_FN copies nothing')
  call MPI_Comm_get_attr(copy, own_key, value, flag)
  call expect(flag .and. value == 105, 'the Fortran copy callback: value + extra_state')
  call MPI_Comm_delete_attr(copy, own_key)
  call expect(deletes == 1 .and. deleted_value == 105, 'the Fortran delete callback')
  call MPI_Comm_get_attr(copy, own_key, value, flag)
  call expect(.not. flag, 'MPI_Comm_get_attr after MPI_Comm_delete_attr')
  call MPI_Comm_free(copy)
  call expect_eq(deletes, 1, 'no delete callback for a deleted attribute')
  call MPI_Comm_free(comm)
  call expect(deletes == 2 .and. deleted_value == 5, 'MPI_Comm_free calls the delete callback')
  call MPI_Comm_free_keyval(own_key)
  call expect(own_key == MPI_KEYVAL_INVALID, 'MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID')
  call MPI_Comm_free_keyval(dup_key)
  call MPI_Comm_free_keyval(null_key)

  call MPI_Barrier(MPI_COMM_WORLD)  ! every rank's checks passed
  if (rank == 0) write (*, '(a)') 'fattrs: ok: MPI_TAG_UB, predefined and Fortran copy and ' // &
    'delete callbacks'
  call MPI_Finalize()
end program attrs_f08
