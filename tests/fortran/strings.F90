! Strings and LOGICALs across the Fortran boundary (mpif.h or `use mpi`): MPI_Initialized and
! MPI_Finalized before, during and after; communicator and datatype names (predefined, none,
! set with trailing blanks, which are not part of the name; results blank-padded past
! resultlen); MPI_Get_processor_name and MPI_Get_library_version; info objects
! (keys and values with blanks round them, MPI_Info_get's flag and truncation to valuelen,
! nkeys/nthkey, dup, delete); LOGICAL results of MPI_Test, MPI_Iprobe and MPI_Comm_test_inter.
program strings
#include "mpi_style.h"
  integer :: rank, ierr, comm, info, copy, req, len, i, nkeys, vlen, got, type
  logical :: flag, keys_seen(2)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=MPI_MAX_INFO_VAL) :: value

  call MPI_Initialized(flag, ierr)
  if (flag) stop 'MPI_Initialized is .true. before MPI_Init'
  call MPI_Finalized(flag, ierr)
  if (flag) stop 'MPI_Finalized is .true. before MPI_Init'
  call MPI_Init(ierr)
  call MPI_Initialized(flag, ierr)
  call expect(flag, 'MPI_Initialized after MPI_Init')
  call MPI_Finalized(flag, ierr)
  call expect(.not. flag, 'MPI_Finalized before MPI_Finalize')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)

  ! Communicator names.
  name = repeat('#', MPI_MAX_OBJECT_NAME)
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, len, ierr)
  call expect(len == 14 .and. name == 'MPI_COMM_WORLD', 'the name of MPI_COMM_WORLD, blank-padded')
  call MPI_Comm_get_name(MPI_COMM_SELF, name, len, ierr)
  call expect(len == 13 .and. name == 'MPI_COMM_SELF', 'the name of MPI_COMM_SELF')
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  name = repeat('#', MPI_MAX_OBJECT_NAME)
  call MPI_Comm_get_name(comm, name, len, ierr)
  call expect(len == 0 .and. name == ' ', 'a duplicate has no name: all blanks')
  call MPI_Comm_set_name(comm, 'weft ring   ', ierr)
  call expect_success(ierr, 'MPI_Comm_set_name')
  call MPI_Comm_get_name(comm, name, len, ierr)
  call expect(len == 9 .and. name == 'weft ring', 'a name set with trailing blanks')
  call MPI_Comm_set_name(comm, repeat('x', MPI_MAX_OBJECT_NAME - 1), ierr)
  call MPI_Comm_get_name(comm, name, len, ierr)
  call expect(len == MPI_MAX_OBJECT_NAME - 1 .and. name == repeat('x', MPI_MAX_OBJECT_NAME - 1), &
              'a name of MPI_MAX_OBJECT_NAME-1 characters')
  call MPI_Comm_test_inter(comm, flag, ierr)
  call expect(.not. flag, 'MPI_Comm_test_inter of an intracommunicator')

  ! Datatype names.
  call MPI_Type_get_name(MPI_INTEGER, name, len, ierr)
  call expect(len == 11 .and. name == 'MPI_INTEGER', 'the name of MPI_INTEGER')
  call MPI_Type_get_name(MPI_DOUBLE_PRECISION, name, len, ierr)
  call expect(name == 'MPI_DOUBLE_PRECISION', 'the name of MPI_DOUBLE_PRECISION')
  call MPI_Type_contiguous(2, MPI_REAL, type, ierr)
  call MPI_Type_set_name(type, 'pair of reals', ierr)
  call MPI_Type_get_name(type, name, len, ierr)
  call expect(len == 13 .and. name == 'pair of reals', 'a datatype name')
  call MPI_Type_free(type, ierr)

  ! The processor and the library.
  host = repeat('#', MPI_MAX_PROCESSOR_NAME)
  call MPI_Get_processor_name(host, len, ierr)
  call expect(len > 0 .and. len <= MPI_MAX_PROCESSOR_NAME, 'MPI_Get_processor_name length')
  call expect(host(len + 1:) == ' ' .and. index(host(1:len), achar(0)) == 0, &
              'MPI_Get_processor_name: blank-padded, no NUL')
  version = repeat('#', MPI_MAX_LIBRARY_VERSION_STRING)
  call MPI_Get_library_version(version, len, ierr)
  call expect(len > 0 .and. version(len + 1:) == ' ', 'MPI_Get_library_version: blank-padded')

  ! Info objects.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'weft_key', 'a value', ierr)
  call MPI_Info_set(info, '  padded_key   ', '   padded value   ', ierr)
  call expect_success(ierr, 'MPI_Info_set')
  value = repeat('#', MPI_MAX_INFO_VAL)
  call MPI_Info_get(info, 'weft_key', MPI_MAX_INFO_VAL, value, flag, ierr)
  call expect(flag .and. value == 'a value', 'MPI_Info_get: the value, blank-padded')
  call MPI_Info_get(info, 'padded_key', MPI_MAX_INFO_VAL, value, flag, ierr)
  call expect(flag .and. value == 'padded value', &
              'MPI_Info_get: blanks round key and value dropped')
  call MPI_Info_get_valuelen(info, 'padded_key', vlen, flag, ierr)
  call expect(flag .and. vlen == 12, 'MPI_Info_get_valuelen')
  value = repeat('#', MPI_MAX_INFO_VAL)
  call MPI_Info_get(info, 'weft_key', 3, value, flag, ierr)
  call expect(flag .and. value == 'a v', 'MPI_Info_get truncates to valuelen, blank-padded')
  value = 'untouched'
  call MPI_Info_get(info, 'no_such_key', MPI_MAX_INFO_VAL, value, flag, ierr)
  call expect(.not. flag .and. value == 'untouched', 'MPI_Info_get of a missing key')
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call expect_eq(nkeys, 2, 'MPI_Info_get_nkeys')
  keys_seen = .false.
  do i = 0, nkeys - 1
    key = repeat('#', MPI_MAX_INFO_KEY)
    call MPI_Info_get_nthkey(info, i, key, ierr)
    if (key == 'weft_key') keys_seen(1) = .true.
    if (key == 'padded_key') keys_seen(2) = .true.
  end do
  call expect(all(keys_seen), 'MPI_Info_get_nthkey gives both keys, blank-padded')
  call MPI_Info_dup(info, copy, ierr)
  call MPI_Info_delete(info, 'weft_key', ierr)
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call expect_eq(nkeys, 1, 'MPI_Info_get_nkeys after MPI_Info_delete')
  call MPI_Info_get(copy, 'weft_key', MPI_MAX_INFO_VAL, value, flag, ierr)
  call expect(flag .and. value == 'a value', 'MPI_Info_dup keeps its own copy')
  call MPI_Info_free(copy, ierr)
  call MPI_Info_free(info, ierr)
  call expect(info == MPI_INFO_NULL, 'MPI_Info_free sets MPI_INFO_NULL')

  ! LOGICAL results of completion and probing: .false. before the message, .true. after.
  call MPI_Iprobe(MPI_ANY_SOURCE, 5, comm, flag, MPI_STATUS_IGNORE, ierr)
  call expect(.not. flag, 'MPI_Iprobe with nothing sent')
  call MPI_Irecv(got, 1, MPI_INTEGER, rank, 5, comm, req, ierr)
  call MPI_Test(req, flag, MPI_STATUS_IGNORE, ierr)
  call expect(.not. flag, 'MPI_Test of a receive with nothing sent')
  call MPI_Send(rank + 40, 1, MPI_INTEGER, rank, 5, comm, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(req, flag, MPI_STATUS_IGNORE, ierr)
  end do
  call expect(req == MPI_REQUEST_NULL .and. got == rank + 40, 'MPI_Test completes the receive')
  call MPI_Comm_free(comm, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! every rank's checks passed
  call MPI_Finalize(ierr)
  call MPI_Finalized(flag, ierr)
  if (.not. flag) stop 'MPI_Finalized is .false. after MPI_Finalize'
  if (rank == 0) write (*, '(a)') 'fstrings: ok: names, processor, library version, info ' // &
    'keys and values, Initialized/Finalized and other LOGICAL results'
end program strings
