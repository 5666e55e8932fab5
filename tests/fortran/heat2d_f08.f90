! tests/apps/heat2d.c in Fortran with `use mpi_f08`: a 2-D heat equation (explicit Jacobi steps,
! fixed boundary) on a Cartesian process grid, halo rows contiguous and halo columns a vector
! type, moved with nonblocking point-to-point; MPI_Allreduce sums the residual, subarray types
! gather the grid at rank 0, which checks it bitwise against a serial run. It prints the C
! version's line: the same checksum, since every cell is computed in the same order. The grid
! is stored transposed (u(j, i) is C's u[i][j]), so memory holds the same values in the same
! places. Usage: heat2d_f08 [rows cols steps]
program heat2d_f08
  use, intrinsic :: iso_fortran_env, only: int64, error_unit
  use mpi_f08
  implicit none
  integer :: grows = 61, gcols = 47, steps = 150
  integer :: rank, nranks, me, up, down, left, right, gi0, lr, gj0, lc, ld, s, cur, r
  integer :: dims(2), coords(2), c(2), bi0, bl, bj0, bc
  type(MPI_Comm) :: grid
  type(MPI_Datatype) :: column, interior, place
  type(MPI_Request) :: reqs(8), sent
  double precision, allocatable, asynchronous :: u(:, :, :)
  double precision, allocatable :: history(:), whole(:, :), a(:, :, :)
  double precision :: local, change
  integer(int64), parameter :: fnv_start = 1469598103934665603_int64
  integer(int64) :: hash_hi, hash_lo, bits
  character(len=16) :: hex
  integer :: i, j

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  if (command_argument_count() >= 3) then
    grows = int_argument(1)
    gcols = int_argument(2)
    steps = int_argument(3)
  end if

  dims = 0
  call MPI_Dims_create(nranks, 2, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.false., .false.], .true., grid)
  call MPI_Comm_rank(grid, me)
  call MPI_Cart_coords(grid, me, 2, coords)
  call MPI_Cart_shift(grid, 0, 1, up, down)
  call MPI_Cart_shift(grid, 1, 1, left, right)

  ! This rank's block of the global grid, with a halo of one cell all round; two copies.
  call split(grows, dims(1), coords(1), gi0, lr)
  call split(gcols, dims(2), coords(2), gj0, lc)
  ld = lc + 2
  allocate (u(0:lc + 1, 0:lr + 1, 2), history(steps))
  u = 0
  do i = 0, lr - 1
    do j = 0, lc - 1
      u(j + 1, i + 1, :) = initial(gi0 + i, gj0 + j)
    end do
  end do
  call MPI_Type_vector(lr, 1, ld, MPI_DOUBLE_PRECISION, column)
  call MPI_Type_commit(column)

  cur = 1
  do s = 1, steps
    call MPI_Irecv(u(1, 0, cur), lc, MPI_DOUBLE_PRECISION, up, 0, grid, reqs(1))
    call MPI_Irecv(u(1, lr + 1, cur), lc, MPI_DOUBLE_PRECISION, down, 1, grid, reqs(2))
    call MPI_Irecv(u(0, 1, cur), 1, column, left, 2, grid, reqs(3))
    call MPI_Irecv(u(lc + 1, 1, cur), 1, column, right, 3, grid, reqs(4))
    call MPI_Isend(u(1, 1, cur), lc, MPI_DOUBLE_PRECISION, up, 1, grid, reqs(5))
    call MPI_Isend(u(1, lr, cur), lc, MPI_DOUBLE_PRECISION, down, 0, grid, reqs(6))
    call MPI_Isend(u(1, 1, cur), 1, column, left, 3, grid, reqs(7))
    call MPI_Isend(u(lc, 1, cur), 1, column, right, 2, grid, reqs(8))
    call MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE)
    local = jacobi_step(u(:, :, cur), u(:, :, 3 - cur), lr + 2, lc + 2, gi0, gj0)
    call MPI_Allreduce(local, history(s), 1, MPI_DOUBLE_PRECISION, MPI_SUM, grid)
    cur = 3 - cur
  end do

  ! Rank 0 gathers the interior of every block with subarray types.
  call MPI_Type_create_subarray(2, [ld, lr + 2], [lc, lr], [1, 1], MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, interior)
  call MPI_Type_commit(interior)
  call MPI_Isend(u(0, 0, cur), 1, interior, 0, 9, grid, sent)
  if (me == 0) then
    allocate (whole(0:gcols - 1, 0:grows - 1))
    do r = 0, nranks - 1
      call MPI_Cart_coords(grid, r, 2, c)
      call split(grows, dims(1), c(1), bi0, bl)
      call split(gcols, dims(2), c(2), bj0, bc)
      call MPI_Type_create_subarray(2, [gcols, grows], [bc, bl], [bj0, bi0], MPI_ORDER_FORTRAN, &
                                    MPI_DOUBLE_PRECISION, place)
      call MPI_Type_commit(place)
      call MPI_Recv(whole, 1, place, r, 9, grid, MPI_STATUS_IGNORE)
      call MPI_Type_free(place)
    end do
    ! The same steps on the whole grid in one process.
    allocate (a(0:gcols + 1, 0:grows + 1, 2))
    a = 0
    do i = 0, grows - 1
      do j = 0, gcols - 1
        a(j + 1, i + 1, :) = initial(i, j)
      end do
    end do
    cur = 1
    do s = 1, steps
      change = jacobi_step(a(:, :, cur), a(:, :, 3 - cur), grows + 2, gcols + 2, 0, 0)
      if (abs(change - history(s)) > 1d-12 * abs(change)) then
        call die('residual differs from the serial run')
      end if
      cur = 3 - cur
    end do
    ! FNV-1a (Fowler, Noll, Vo) over the bits of the grid in C's row order, from heat2d.c's
    ! starting value, 64 bits kept as two 32-bit halves so that no signed integer overflows.
    hash_hi = ibits(fnv_start, 32, 32)
    hash_lo = ibits(fnv_start, 0, 32)
    do i = 0, grows - 1
      do j = 0, gcols - 1
        if (transfer(whole(j, i), bits) /= transfer(a(j + 1, i + 1, cur), bits)) then
          call die('the distributed grid differs from the serial run')
        end if
        bits = transfer(whole(j, i), bits)
        hash_hi = ieor(hash_hi, ibits(bits, 32, 32))
        hash_lo = ieor(hash_lo, ibits(bits, 0, 32))
        call times_fnv_prime(hash_hi, hash_lo)
      end do
    end do
    write (hex, '(z8.8, z8.8)') hash_hi, hash_lo
    ! The residual's last digits depend on the summation order, so only the grid is printed.
    write (*, '(a, i0, a, i0, a, i0, 2a)') 'heat2d: ', grows, 'x', gcols, ' grid, ', steps, &
      ' steps: matches the serial run bitwise; checksum ', lower(hex)
  end if
  call MPI_Wait(sent, MPI_STATUS_IGNORE)
  call MPI_Type_free(interior)
  call MPI_Type_free(column)
  call MPI_Comm_free(grid)
  call MPI_Finalize()

contains

  ! First index and length of part `i` of `n` split into `parts` nearly equal parts.
  subroutine split(n, parts, i, first, length)
    integer, intent(in) :: n, parts, i
    integer, intent(out) :: first, length
    length = n / parts + merge(1, 0, i < mod(n, parts))
    first = i * (n / parts) + min(i, mod(n, parts))
  end subroutine split

  double precision function initial(i, j)
    integer, intent(in) :: i, j
    initial = dble(mod(i * 7 + j * 13, 17)) / 17d0
  end function initial

  ! One Jacobi step on the points [1, rows-1) x [1, cols-1) of u, global interior only, written
  ! to next; returns the sum of squared changes. Operands are added in heat2d.c's order.
  double precision function jacobi_step(u, next, rows, cols, gi0, gj0) result(total)
    double precision, intent(in) :: u(0:, 0:)
    double precision, intent(inout) :: next(0:, 0:)
    integer, intent(in) :: rows, cols, gi0, gj0
    integer :: i, j, gi, gj
    double precision :: c, v
    total = 0
    do i = 1, rows - 2
      do j = 1, cols - 2
        gi = gi0 + i - 1
        gj = gj0 + j - 1
        c = u(j, i)
        v = c
        if (gi > 0 .and. gi < grows - 1 .and. gj > 0 .and. gj < gcols - 1) then
          v = c + 0.2d0 * ((((u(j, i - 1) + u(j, i + 1)) + u(j - 1, i)) + u(j + 1, i)) - 4 * c)
        end if
        next(j, i) = v
        total = total + (v - c) * (v - c)
      end do
    end do
  end function jacobi_step

  ! (hi, lo) = (hi, lo) * 1099511628211 mod 2**64, the FNV prime being 256 * 2**32 + 435.
  subroutine times_fnv_prime(hi, lo)
    integer(int64), intent(inout) :: hi, lo
    integer(int64), parameter :: two32 = 2_int64**32, prime_hi = 256, prime_lo = 435
    integer(int64) :: low_product
    low_product = lo * prime_lo
    hi = modulo(low_product / two32 + hi * prime_lo + lo * prime_hi, two32)
    lo = modulo(low_product, two32)
  end subroutine times_fnv_prime

  function lower(text)
    character(len=*), intent(in) :: text
    character(len=len(text)) :: lower
    integer :: k
    lower = text
    do k = 1, len(text)
      if (text(k:k) >= 'A' .and. text(k:k) <= 'Z') lower(k:k) = achar(iachar(text(k:k)) + 32)
    end do
  end function lower

  integer function int_argument(k)
    integer, intent(in) :: k
    character(len=32) :: text
    call get_command_argument(k, text)
    read (text, *) int_argument
  end function int_argument

  subroutine die(what)
    character(len=*), intent(in) :: what
    write (error_unit, '(2a)') 'heat2d: ', what
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine die
end program heat2d_f08
