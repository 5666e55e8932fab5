! The MPI interface of a program unit in the shared sources: INCLUDE 'mpif.h' when compiled with
! -DWEFT_MPIF_H, else USE MPI. Indented to column 7, so fixed-form sources include it too.
#ifdef WEFT_MPIF_H
      implicit none
      include 'mpif.h'
#else
      use mpi
      implicit none
#endif
