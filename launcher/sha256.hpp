// SHA-256 (FIPS 180-4), for the launcher's challenge-response between weftrun and weftd: a
// daemon proves it holds the job's secret by hashing it with a fresh challenge.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace weft::launcher {

using Digest = std::array<uint8_t, 32>;

Digest sha256(const std::string& data);
std::string to_hex(const Digest& digest);

}  // namespace weft::launcher
