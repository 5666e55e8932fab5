// Wire encoding of the spawn and name-service calls weftd forwards to weftrun
// (launcher/dynamic_calls.hpp).
#include "launcher/dynamic_calls.hpp"

#include "launcher/wire.hpp"

namespace weft::launcher {
namespace {

void write_pairs(BodyWriter& w, const Found& pairs) {
  w.u32(uint32_t(pairs.size()));
  for (const auto& [key, value] : pairs) w.str(key).str(value);
}

Found read_pairs(BodyReader& r) {
  Found pairs;
  const uint32_t n = r.u32();
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    std::string key = r.str();
    std::string value = r.str();
    pairs.emplace_back(std::move(key), std::move(value));
  }
  return pairs;
}

}  // namespace

std::string encode_spawn_call(uint32_t id, const SpawnRequest& request) {
  BodyWriter w;
  w.u32(id).str(request.parent).u32(uint32_t(request.apps.size()));
  for (const SpawnRequest::App& app : request.apps) {
    w.i32(app.context.nranks).strings(app.context.argv).str(app.context.wdir).str(app.host);
    write_pairs(w, app.context.env);
  }
  return w.bytes();
}

bool decode_spawn_call(const std::string& body, uint32_t* id, SpawnRequest* out) {
  BodyReader r(body);
  *id = r.u32();
  out->parent = r.str();
  const uint32_t napps = r.u32();
  for (uint32_t a = 0; a < napps && r.ok(); ++a) {
    SpawnRequest::App app;
    app.context.nranks = r.i32();
    app.context.argv = r.strings();
    app.context.wdir = r.str();
    app.host = r.str();
    app.context.env = read_pairs(r);
    out->apps.push_back(std::move(app));
  }
  return r.ok();
}

std::string encode_spawn_answer(uint32_t id, const std::string& nspace, bool ok) {
  return BodyWriter().u32(id).str(nspace).u32(ok ? 1 : 0).bytes();
}

bool decode_spawn_answer(const std::string& body, uint32_t* id, std::string* nspace, bool* ok) {
  BodyReader r(body);
  *id = r.u32();
  *nspace = r.str();
  *ok = r.u32() != 0;
  return r.ok();
}

std::string encode_name_call(uint32_t id, const NameRequest& request) {
  BodyWriter w;
  w.u32(id).u32(uint32_t(request.kind)).u32(request.wait ? 1 : 0);
  write_pairs(w, request.entries);
  return w.bytes();
}

bool decode_name_call(const std::string& body, uint32_t* id, NameRequest* out) {
  BodyReader r(body);
  *id = r.u32();
  const uint32_t kind = r.u32();
  out->wait = r.u32() != 0;
  out->entries = read_pairs(r);
  if (kind > NameRequest::kUnpublish) return false;
  out->kind = NameRequest::Kind(kind);
  return r.ok();
}

std::string encode_name_answer(uint32_t id, NameOutcome outcome, const Found& found) {
  BodyWriter w;
  w.u32(id).u32(uint32_t(outcome));
  write_pairs(w, found);
  return w.bytes();
}

bool decode_name_answer(const std::string& body, uint32_t* id, NameOutcome* outcome,
                        Found* found) {
  BodyReader r(body);
  *id = r.u32();
  const uint32_t o = r.u32();
  *found = read_pairs(r);
  if (o > uint32_t(NameOutcome::kDuplicate)) return false;
  *outcome = NameOutcome(o);
  return r.ok();
}

}  // namespace weft::launcher
