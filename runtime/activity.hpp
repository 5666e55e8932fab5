// Work the progress engine drives besides the transport: a nonblocking or blocking collective in
// flight. A request of kind kActivity owns one (nonblocking and persistent collectives).
#pragma once
#include "runtime/status.hpp"

namespace weft {

class Activity {
 public:
  virtual ~Activity() = default;
  // Makes what progress it can without blocking; returns how many steps completed.
  virtual unsigned advance() = 0;
  virtual bool finished() const = 0;
  // The error it finished with, if any (meaningful once finished).
  virtual Status outcome() const = 0;
  // Runs again from the start (persistent requests, MPI_Start).
  virtual Status restart() = 0;
};

}  // namespace weft
