! Point-to-point with wildcards (mpif.h or `use mpi`): a ring of integers received with
! MPI_ANY_SOURCE/MPI_ANY_TAG, a ring of variable-length DOUBLE PRECISION messages the other way
! (MPI_Get_count), a Sendrecv with MPI_STATUS_IGNORE, and a fan-in to rank 0 in any order
! through MPI_Probe, each wildcard phase on its own MPI_Comm_dup. The source, tag and count in
! every status are checked.
program ring
#include "mpi_style.h"
  integer :: rank, nranks, left, right, ierr, i, count, req
  integer :: token(3), got(3), reqs(2), from, payload, phase(2)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  double precision, allocatable :: outgoing(:), incoming(:)
  logical, allocatable :: seen(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  ! Each wildcard phase on a communicator of its own, so it matches only its own messages.
  call MPI_Comm_dup(MPI_COMM_WORLD, phase(1), ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, phase(2), ierr)

  ! Integers to the right, received from anyone with any tag.
  token = (/ rank, rank * rank, 7 /)
  call MPI_Irecv(got, 3, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, phase(1), req, ierr)
  call MPI_Send(token, 3, MPI_INTEGER, right, 100 + rank, phase(1), ierr)
  call expect_success(ierr, 'MPI_Send')
  call MPI_Wait(req, status, ierr)
  call expect_eq(status(MPI_SOURCE), left, 'ring: status(MPI_SOURCE)')
  call expect_eq(status(MPI_TAG), 100 + left, 'ring: status(MPI_TAG)')
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call expect_eq(count, 3, 'ring: MPI_Get_count')
  call expect(all(got == (/ left, left * left, 7 /)), 'ring: the integers received')

  ! 2*rank+1 doubles to the left; the receiver learns the length from the status.
  allocate (outgoing(2 * rank + 1), incoming(2 * nranks + 1))
  outgoing = (/ (rank + i / 8d0, i = 1, 2 * rank + 1) /)
  incoming = -1
  call MPI_Irecv(incoming, size(incoming), MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, &
                 phase(2), reqs(1), ierr)
  call MPI_Isend(outgoing, size(outgoing), MPI_DOUBLE_PRECISION, left, 200, phase(2), &
                 reqs(2), ierr)
  call MPI_Waitall(2, reqs, statuses, ierr)
  call expect_success(ierr, 'MPI_Waitall')
  call expect_eq(statuses(MPI_SOURCE, 1), right, 'doubles: status(MPI_SOURCE)')
  call expect_eq(statuses(MPI_TAG, 1), 200, 'doubles: status(MPI_TAG)')
  call MPI_Get_count(statuses(:, 1), MPI_DOUBLE_PRECISION, count, ierr)
  call expect_eq(count, 2 * right + 1, 'doubles: MPI_Get_count')
  call expect(all(incoming(1:count) == (/ (right + i / 8d0, i = 1, count) /)), &
              'doubles: the values received')
  call expect(incoming(count + 1) == -1, 'doubles: nothing written past the message')

  ! A Sendrecv that ignores its status.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 300, from, 1, MPI_INTEGER, MPI_ANY_SOURCE, &
                    300, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call expect_success(ierr, 'MPI_Sendrecv')
  call expect_eq(from, left, 'MPI_Sendrecv with MPI_STATUS_IGNORE')

  ! Fan-in: rank 0 probes for anything and receives exactly what the probe found.
  if (rank == 0) then
    allocate (seen(nranks - 1))
    seen = .false.
    do i = 1, nranks - 1
      call MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
      from = status(MPI_SOURCE)
      call expect(from >= 1 .and. from < nranks, 'fan-in: probed source in range')
      call expect(.not. seen(from), 'fan-in: each sender once')
      call expect_eq(status(MPI_TAG), 1000 + from, 'fan-in: probed tag')
      seen(from) = .true.
      call MPI_Recv(payload, 1, MPI_INTEGER, from, status(MPI_TAG), MPI_COMM_WORLD, status, ierr)
      call expect_eq(payload, 10 * from, 'fan-in: payload')
      call expect_eq(status(MPI_SOURCE), from, 'fan-in: received source')
    end do
  else
    call MPI_Send(10 * rank, 1, MPI_INTEGER, 0, 1000 + rank, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'fring: ok, ', nranks, &
    ' ranks: wildcard receives, counts, probes and status fields checked'
  call MPI_Comm_free(phase(1), ierr)
  call MPI_Comm_free(phase(2), ierr)
  call MPI_Finalize(ierr)
end program ring
