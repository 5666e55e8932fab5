// The libfabric providers Weft can run its transport on: discovery with the hints the transport
// needs (tagged RDM endpoints, FI_CONTEXT), the providers refused and why, and the rule that
// picks one when WEFT_OFI_PROVIDER is "auto" (man/weft.7, "Transports").
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/status.hpp"

struct fi_info;

namespace weft::ofi {

struct Provider {
  std::string name;  // fabric_attr->prov_name, e.g. "tcp;ofi_rxm"
  std::string domain;
  size_t inject_size = 0;
  size_t max_msg_size = 0;
  // Hardware UCX does not drive (Slingshot, Omni-Path, EFA): the auto rule prefers libfabric.
  bool native_fabric = false;
  std::string refused;  // why Weft does not use it; empty when usable
};

// Every provider libfabric offers for Weft's hints, one entry per provider name (the first
// domain found), usable ones and refused ones alike.
std::vector<Provider> list_providers();

// Whether this host has a device of a fabric UCX does not drive (/dev/cxi*: Slingshot;
// /dev/hfi1_*: Omni-Path; /sys/class/infiniband/efa*, irdma*: EFA, Intel Ethernet for psm3).
// Cheap, unlike the first fi_getinfo of a process (0.3-0.8 s here: every provider loads), so
// the auto rule asks libfabric only where this holds.
bool native_fabric_device_present();

// The provider WEFT_OFI_PROVIDER names ("auto": by the rule), with the reason in `why`; an
// MPI_ERR_OTHER naming the provider and the reason when it is refused or missing.
Status choose_provider(const std::string& requested, Provider* out, std::string* why);

// Whether provider `name` offers Weft's endpoints with capability `cap` too (FI_RMA, FI_HMEM):
// asked of libfabric with the capability in the hints, as a reply lists only those asked for.
bool offers(const std::string& name, uint64_t cap);

// The fi_info of provider `name` for Weft's hints (free with fi_freeinfo).
Status provider_info(const std::string& name, fi_info** out);

}  // namespace weft::ofi
