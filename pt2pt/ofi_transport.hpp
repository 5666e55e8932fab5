// Transport over libfabric's tagged messages (fi_tsend/fi_trecv on FI_EP_RDM endpoints) with a
// completion queue whose wait fd lets idle ranks block; the provider comes from
// pt2pt/ofi_provider.hpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pt2pt/transport.hpp"

namespace weft {

struct OfiOptions {
  std::string provider;  // a provider name as libfabric writes it, e.g. "tcp;ofi_rxm"
  int rank = 0;          // this process's rank in its job
  int world_size = 1;
  // The published address of a process, for acknowledging a synchronous send from a peer this
  // process has not connected to yet.
  std::function<Status(int peer, std::vector<uint8_t>* address)> address_of;
};

Status make_ofi_transport(const OfiOptions& options, std::unique_ptr<Transport>* out);

}  // namespace weft
