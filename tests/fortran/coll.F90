! Every data-moving collective (mpif.h or `use mpi`): barrier, bcast (INTEGER, CHARACTER,
! LOGICAL), gather(v), scatter(v), allgather(v), alltoall(v/w), each also with MPI_IN_PLACE.
! Every value encodes its sender, receiver and position, and slots nobody should write keep a
! sentinel.
program coll
#include "mpi_style.h"
  integer, parameter :: none = -99
  integer :: rank, n, ierr, i, j, k, root, intsize
  integer, allocatable :: a(:), b(:), counts(:), displs(:), rcounts(:), rdispls(:)
  integer, allocatable :: stypes(:), rtypes(:)
  character(len=16) :: word
  logical :: flags(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  allocate (a(4 * n * n + 8), b(4 * n * n + 8), counts(0:n - 1), displs(0:n - 1), &
            rcounts(0:n - 1), rdispls(0:n - 1), stypes(0:n - 1), rtypes(0:n - 1))

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call expect_success(ierr, 'MPI_Barrier')

  ! Bcast from the last rank: integers, a blank-padded string, logicals.
  root = n - 1
  a(1:5) = none
  word = ''
  flags = .false.
  if (rank == root) then
    a(1:5) = (/ (7 * i, i = 1, 5) /)
    word = 'weft bcast'
    flags = (/ .true., .false., .true. /)
  end if
  call MPI_Bcast(a, 5, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(word, len(word), MPI_CHARACTER, root, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(flags, 3, MPI_LOGICAL, root, MPI_COMM_WORLD, ierr)
  call expect(all(a(1:5) == (/ (7 * i, i = 1, 5) /)), 'bcast: integers')
  call expect(word == 'weft bcast', 'bcast: MPI_CHARACTER')
  call expect(flags(1) .and. .not. flags(2) .and. flags(3), 'bcast: MPI_LOGICAL')

  ! Gather of two integers to rank 0, then the same with rank 0's part already in place.
  do k = 0, 1
    b = none
    a(1:2) = (/ rank, 10 * rank /)
    if (k == 1 .and. rank == 0) then
      b(1:2) = a(1:2)
      call MPI_Gather(MPI_IN_PLACE, 2, MPI_INTEGER, b, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    else
      call MPI_Gather(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end if
    if (rank == 0) call expect(all(b(1:2 * n) == (/ (i / 2 * (1 + 9 * mod(i, 2)), &
                                                     i = 0, 2 * n - 1) /)), 'gather')
  end do

  ! Gatherv: rank j sends j+1 integers to rank 0, which leaves a gap of one before each block.
  do j = 0, n - 1
    counts(j) = j + 1
    displs(j) = j * (j + 1) / 2 + j + 1
  end do
  do k = 0, 1
    b = none
    a(1:rank + 1) = (/ (100 * rank + i, i = 1, rank + 1) /)
    if (k == 1 .and. rank == 0) then
      b(displs(0) + 1) = a(1)
      call MPI_Gatherv(MPI_IN_PLACE, 0, MPI_INTEGER, b, counts, displs, MPI_INTEGER, 0, &
                       MPI_COMM_WORLD, ierr)
    else
      call MPI_Gatherv(a, rank + 1, MPI_INTEGER, b, counts, displs, MPI_INTEGER, 0, &
                       MPI_COMM_WORLD, ierr)
    end if
    if (rank == 0) then
      do j = 0, n - 1
        call expect(b(displs(j)) == none, 'gatherv: the gap before a block')
        call expect(all(b(displs(j) + 1:displs(j) + j + 1) == (/ (100 * j + i, i = 1, j + 1) /)), &
                    'gatherv: a block')
      end do
    end if
  end do

  ! Scatter of three integers from rank n/2; in place the root keeps its part where it is.
  root = n / 2
  do k = 0, 1
    a = (/ (i, i = 1, size(a)) /)
    b(1:3) = none
    if (k == 1 .and. rank == root) then
      call MPI_Scatter(a, 3, MPI_INTEGER, MPI_IN_PLACE, 3, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
      b(1:3) = a(3 * root + 1:3 * root + 3)
    else
      call MPI_Scatter(a, 3, MPI_INTEGER, b, 3, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    end if
    call expect(all(b(1:3) == (/ 3 * rank + 1, 3 * rank + 2, 3 * rank + 3 /)), 'scatter')
  end do

  ! Scatterv: rank j gets j+1 integers, taken from the root's buffer in reverse rank order.
  do j = 0, n - 1
    counts(j) = j + 1
    displs(j) = sum((/ (i + 1, i = j + 1, n - 1) /))
  end do
  do k = 0, 1
    a = (/ (i, i = 1, size(a)) /)
    b = none
    if (k == 1 .and. rank == root) then
      call MPI_Scatterv(a, counts, displs, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_INTEGER, root, &
                        MPI_COMM_WORLD, ierr)
      b(1:rank + 1) = a(displs(rank) + 1:displs(rank) + rank + 1)
    else
      call MPI_Scatterv(a, counts, displs, MPI_INTEGER, b, rank + 1, MPI_INTEGER, root, &
                        MPI_COMM_WORLD, ierr)
    end if
    call expect(all(b(1:rank + 1) == (/ (displs(rank) + i, i = 1, rank + 1) /)), 'scatterv')
    call expect(b(rank + 2) == none, 'scatterv: nothing past the block')
  end do

  ! Allgather of (rank, -rank); in place each rank's pair is already in its slot.
  do k = 0, 1
    b = none
    a(1:2) = (/ rank, -rank /)
    if (k == 1) then
      b(2 * rank + 1:2 * rank + 2) = a(1:2)
      call MPI_Allgather(MPI_IN_PLACE, 0, MPI_INTEGER, b, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    else
      call MPI_Allgather(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    end if
    call expect(all(b(1:2 * n:2) == (/ (i, i = 0, n - 1) /)) .and. &
                all(b(2:2 * n:2) == (/ (-i, i = 0, n - 1) /)), 'allgather')
  end do

  ! Allgatherv: rank j contributes j+1 integers, packed one after the other.
  do j = 0, n - 1
    counts(j) = j + 1
    displs(j) = j * (j + 1) / 2
  end do
  do k = 0, 1
    b = none
    a(1:rank + 1) = (/ (100 * rank + i, i = 1, rank + 1) /)
    if (k == 1) then
      b(displs(rank) + 1:displs(rank) + rank + 1) = a(1:rank + 1)
      call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INTEGER, b, counts, displs, MPI_INTEGER, &
                          MPI_COMM_WORLD, ierr)
    else
      call MPI_Allgatherv(a, rank + 1, MPI_INTEGER, b, counts, displs, MPI_INTEGER, &
                          MPI_COMM_WORLD, ierr)
    end if
    do j = 0, n - 1
      call expect(all(b(displs(j) + 1:displs(j) + j + 1) == (/ (100 * j + i, i = 1, j + 1) /)), &
                  'allgatherv')
    end do
    call expect(b(n * (n + 1) / 2 + 1) == none, 'allgatherv: nothing past the blocks')
  end do

  ! Alltoall: two integers from every rank to every rank; in place they are replaced.
  do k = 0, 1
    a(1:2 * n) = (/ (1000 * rank + i, i = 0, 2 * n - 1) /)
    b = none
    if (k == 1) then
      b(1:2 * n) = a(1:2 * n)
      call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INTEGER, b, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    else
      call MPI_Alltoall(a, 2, MPI_INTEGER, b, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    end if
    do j = 0, n - 1
      call expect(b(2 * j + 1) == 1000 * j + 2 * rank .and. &
                  b(2 * j + 2) == 1000 * j + 2 * rank + 1, 'alltoall')
    end do
  end do

  ! Alltoallv: rank r sends r+j+1 integers to rank j, blocks packed; received blocks keep a gap.
  do j = 0, n - 1
    counts(j) = rank + j + 1
    rcounts(j) = j + rank + 1
  end do
  displs(0) = 0
  rdispls(0) = 1
  do j = 1, n - 1
    displs(j) = displs(j - 1) + counts(j - 1)
    rdispls(j) = rdispls(j - 1) + rcounts(j - 1) + 1
  end do
  do j = 0, n - 1
    a(displs(j) + 1:displs(j) + counts(j)) = (/ (10000 * rank + 100 * j + i, i = 1, counts(j)) /)
  end do
  b = none
  call MPI_Alltoallv(a, counts, displs, MPI_INTEGER, b, rcounts, rdispls, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  do j = 0, n - 1
    call expect(b(rdispls(j)) == none, 'alltoallv: the gap before a block')
    call expect(all(b(rdispls(j) + 1:rdispls(j) + rcounts(j)) == &
                    (/ (10000 * j + 100 * rank + i, i = 1, rcounts(j)) /)), 'alltoallv: a block')
  end do
  ! ... and in place, where each pair exchanges the same number of integers both ways.
  b = none
  do j = 0, n - 1
    b(2 * j + 1:2 * j + 2) = (/ 100 * rank + j, -(100 * rank + j) /)
    counts(j) = 2
    displs(j) = 2 * j
  end do
  call MPI_Alltoallv(MPI_IN_PLACE, counts, displs, MPI_INTEGER, b, counts, displs, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  do j = 0, n - 1
    call expect(b(2 * j + 1) == 100 * j + rank .and. b(2 * j + 2) == -(100 * j + rank), &
                'alltoallv in place')
  end do

  ! Alltoallw: r+j+1 integers between ranks r and j; to a peer of odd r+j the sender picks them
  ! with a stride-2 vector type, the receiver takes them contiguous (same type signature).
  call MPI_Type_size(MPI_INTEGER, intsize, ierr)
  a = none
  do j = 0, n - 1
    counts(j) = 1
    rcounts(j) = rank + j + 1
    displs(j) = intsize * 4 * n * j
    rdispls(j) = intsize * (2 * n + 1) * j
    rtypes(j) = MPI_INTEGER
    if (mod(rank + j, 2) == 1) then
      call MPI_Type_vector(rank + j + 1, 1, 2, MPI_INTEGER, stypes(j), ierr)
      call MPI_Type_commit(stypes(j), ierr)
      do i = 1, rank + j + 1
        a(displs(j) / intsize + 2 * i - 1) = 10000 * rank + 100 * j + i
      end do
    else
      call MPI_Type_contiguous(rank + j + 1, MPI_INTEGER, stypes(j), ierr)
      call MPI_Type_commit(stypes(j), ierr)
      a(displs(j) / intsize + 1:displs(j) / intsize + rank + j + 1) = &
        (/ (10000 * rank + 100 * j + i, i = 1, rank + j + 1) /)
    end if
  end do
  b = none
  call MPI_Alltoallw(a, counts, displs, stypes, b, rcounts, rdispls, rtypes, MPI_COMM_WORLD, ierr)
  call expect_success(ierr, 'MPI_Alltoallw')
  do j = 0, n - 1
    i = rdispls(j) / intsize
    call expect(all(b(i + 1:i + rcounts(j)) == &
                    (/ (10000 * j + 100 * rank + k, k = 1, rcounts(j)) /)), &
                'alltoallw: a block')
    call expect(b(i + rcounts(j) + 1) == none, 'alltoallw: nothing past a block')
    call MPI_Type_free(stypes(j), ierr)
  end do


  ! ... and in place: two integers each way between every pair, described by the receive side.
  b = none
  do j = 0, n - 1
    b(2 * j + 1:2 * j + 2) = (/ 100 * rank + j, -(100 * rank + j) /)
    rcounts(j) = 2
    rdispls(j) = intsize * 2 * j
  end do
  call MPI_Alltoallw(MPI_IN_PLACE, counts, displs, stypes, b, rcounts, rdispls, rtypes, &
                     MPI_COMM_WORLD, ierr)
  do j = 0, n - 1
    call expect(b(2 * j + 1) == 100 * j + rank .and. b(2 * j + 2) == -(100 * j + rank), &
                'alltoallw in place')
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'fcoll: ok, ', n, &
    ' ranks: barrier, bcast, gather(v), scatter(v), allgather(v), alltoall(v/w), in place too'
  call MPI_Finalize(ierr)
end program coll
