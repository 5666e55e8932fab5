! Point-to-point with wildcards through `use mpi_f08`: a ring of integers received with
! MPI_ANY_SOURCE/MPI_ANY_TAG, a ring of variable-length DOUBLE PRECISION messages the other way
! (MPI_Get_count), a Sendrecv with MPI_STATUS_IGNORE, and a fan-in to rank 0 in any order
! through MPI_Probe, each wildcard phase on its own MPI_Comm_dup; MPI_Waitany and MPI_Waitsome
! give 1-based indices; MPI_Wtime and MPI_Wtick. The fields of every type(MPI_Status) are
! checked; ierror is left out.
program ring_f08
  use mpi_f08
  implicit none
  integer :: rank, nranks, left, right, i, count, from, payload
  integer :: token(3), got(3), pair(2), indices(2), index, k
  logical :: done(2)
  double precision :: start
  type(MPI_Request) :: req, reqs(2)
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Comm) :: phase(2)
  double precision, allocatable :: outgoing(:), incoming(:)
  logical, allocatable :: seen(:)

  call MPI_Init()
  start = MPI_Wtime()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  ! Each wildcard phase on a communicator of its own, so it matches only its own messages.
  call MPI_Comm_dup(MPI_COMM_WORLD, phase(1))
  call MPI_Comm_dup(MPI_COMM_WORLD, phase(2))

  ! Integers to the right, received from anyone with any tag.
  token = [rank, rank * rank, 7]
  call MPI_Irecv(got, 3, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, phase(1), req)
  call MPI_Send(token, 3, MPI_INTEGER, right, 100 + rank, phase(1))
  call MPI_Wait(req, status)
  call expect_eq(status%MPI_SOURCE, left, 'ring: status%MPI_SOURCE')
  call expect_eq(status%MPI_TAG, 100 + left, 'ring: status%MPI_TAG')
  call MPI_Get_count(status, MPI_INTEGER, count)
  call expect_eq(count, 3, 'ring: MPI_Get_count')
  call expect(all(got == [left, left * left, 7]), 'ring: the integers received')

  ! 2*rank+1 doubles to the left; the receiver learns the length from the status.
  allocate (outgoing(2 * rank + 1), incoming(2 * nranks + 1))
  outgoing = [(rank + i / 8d0, i = 1, 2 * rank + 1)]
  incoming = -1
  call MPI_Irecv(incoming, size(incoming), MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, &
                 phase(2), reqs(1))
  call MPI_Isend(outgoing, size(outgoing), MPI_DOUBLE_PRECISION, left, 200, phase(2), &
                 reqs(2))
  call MPI_Waitall(2, reqs, statuses)
  call expect_eq(statuses(1)%MPI_SOURCE, right, 'doubles: status%MPI_SOURCE')
  call expect_eq(statuses(1)%MPI_TAG, 200, 'doubles: status%MPI_TAG')
  call MPI_Get_count(statuses(1), MPI_DOUBLE_PRECISION, count)
  call expect_eq(count, 2 * right + 1, 'doubles: MPI_Get_count')
  call expect(all(incoming(1:count) == [(right + i / 8d0, i = 1, count)]), &
              'doubles: the values received')
  call expect(incoming(count + 1) == -1, 'doubles: nothing written past the message')

  ! A Sendrecv that ignores its status.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 300, from, 1, MPI_INTEGER, MPI_ANY_SOURCE, &
                    300, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call expect_eq(from, left, 'MPI_Sendrecv with MPI_STATUS_IGNORE')

  ! Completion by index, 1-based in Fortran: MPI_Waitany one request at a time, then
  ! MPI_UNDEFINED once none is active; MPI_Waitsome likewise with its index list.
  do k = 1, 2
    call MPI_Irecv(pair(1), 1, MPI_INTEGER, left, 400, MPI_COMM_WORLD, reqs(1))
    call MPI_Irecv(pair(2), 1, MPI_INTEGER, right, 401, MPI_COMM_WORLD, reqs(2))
    call MPI_Send(rank, 1, MPI_INTEGER, right, 400, MPI_COMM_WORLD)
    call MPI_Send(rank, 1, MPI_INTEGER, left, 401, MPI_COMM_WORLD)
    done = .false.
    do while (.not. all(done))
      if (k == 1) then
        call MPI_Waitany(2, reqs, index, status)
        call expect(index == 1 .or. index == 2, 'MPI_Waitany: a 1-based index')
        call expect(.not. done(index), 'MPI_Waitany: each request once')
        call expect_eq(status%MPI_TAG, 399 + index, 'MPI_Waitany: the status of that request')
        done(index) = .true.
      else
        call MPI_Waitsome(2, reqs, count, indices, statuses)
        call expect(count >= 1 .and. count <= 2, 'MPI_Waitsome: outcount')
        do i = 1, count
          call expect(indices(i) == 1 .or. indices(i) == 2, 'MPI_Waitsome: 1-based indices')
          call expect(.not. done(indices(i)), 'MPI_Waitsome: each request once')
          call expect_eq(statuses(i)%MPI_TAG, 399 + indices(i), 'MPI_Waitsome: the statuses')
          done(indices(i)) = .true.
        end do
      end if
    end do
    call expect(all(pair == [left, right]), 'completion by index: the values')
  end do
  call MPI_Waitany(2, reqs, index, status)
  call expect_eq(index, MPI_UNDEFINED, 'MPI_Waitany with no active request')
  call MPI_Waitsome(2, reqs, count, indices, statuses)
  call expect_eq(count, MPI_UNDEFINED, 'MPI_Waitsome with no active request')

  ! Fan-in: rank 0 probes for anything and receives exactly what the probe found.
  if (rank == 0) then
    allocate (seen(nranks - 1))
    seen = .false.
    do i = 1, nranks - 1
      call MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status)
      from = status%MPI_SOURCE
      call expect(from >= 1 .and. from < nranks, 'fan-in: probed source in range')
      call expect(.not. seen(from), 'fan-in: each sender once')
      call expect_eq(status%MPI_TAG, 1000 + from, 'fan-in: probed tag')
      seen(from) = .true.
      call MPI_Recv(payload, 1, MPI_INTEGER, from, status%MPI_TAG, MPI_COMM_WORLD, status)
      call expect_eq(payload, 10 * from, 'fan-in: payload')
      call expect_eq(status%MPI_SOURCE, from, 'fan-in: received source')
    end do
  else
    call MPI_Send(10 * rank, 1, MPI_INTEGER, 0, 1000 + rank, MPI_COMM_WORLD)
  end if
  call expect(MPI_Wtime() >= start, 'MPI_Wtime does not go back')
  call expect(MPI_Wtick() > 0, 'MPI_Wtick')
  call MPI_Barrier(MPI_COMM_WORLD)  ! every rank's checks passed
  if (rank == 0) write (*, '(a, i0, a)') 'fring: ok, ', nranks, &
    ' ranks: wildcard receives, counts, probes, statuses, Waitany/Waitsome indices'
  call MPI_Comm_free(phase(1))
  call MPI_Comm_free(phase(2))
  call MPI_Finalize()
end program ring_f08
