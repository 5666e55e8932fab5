// MPI_Comm_spawn and the name service for ranks that weftd started: weftd's PMIx server takes
// their calls and forwards them to weftrun, which serves them as it serves its own ranks' (the
// children start on weftrun's node, the names live in its one directory) and sends the answer
// back. These encode the calls and answers for the wire (launcher/wire.hpp).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "launcher/pmix_server.hpp"

namespace weft::launcher {

// A forwarded call: weftd's number for it, to match the answer, and the request (its handle is
// weftd's and does not travel).
std::string encode_spawn_call(uint32_t id, const SpawnRequest& request);
bool decode_spawn_call(const std::string& body, uint32_t* id, SpawnRequest* out);
std::string encode_spawn_answer(uint32_t id, const std::string& nspace, bool ok);
bool decode_spawn_answer(const std::string& body, uint32_t* id, std::string* nspace, bool* ok);

std::string encode_name_call(uint32_t id, const NameRequest& request);
bool decode_name_call(const std::string& body, uint32_t* id, NameRequest* out);
using Found = std::vector<std::pair<std::string, std::string>>;
std::string encode_name_answer(uint32_t id, NameOutcome outcome, const Found& found);
bool decode_name_answer(const std::string& body, uint32_t* id, NameOutcome* outcome, Found* found);

}  // namespace weft::launcher
