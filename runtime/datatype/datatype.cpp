// The Datatype object: what it derives from its layout and signature, naming, commit, copies.
#include "runtime/datatype/datatype.hpp"

#include "runtime/datatype/predefined.hpp"

namespace weft {
namespace {

// The data of one element of a predefined type: its fields where the C type places them, so a
// pair type such as MPI_SHORT_INT ({short; int}) is two runs with a gap between them.
Layout predefined_layout(const PredefinedType& p) {
  Layout layout;
  for (int f = 0; f < p.nfields; ++f) {
    const Layout field{Segment{0, 1, 0, p.fields[f].native, {}}};
    append_repeat(&layout, p.fields[f].offset, 1, 0, field);
  }
  return layout;
}

}  // namespace

Datatype::Datatype(Layout layout, Signature signature, TypeBounds bounds, size_t alignment,
                   Envelope envelope)
    : size_(layout_bytes(layout)),
      alignment_(alignment),
      bounds_(bounds),
      layout_(std::move(layout)),
      signature_(std::move(signature)),
      envelope_(std::move(envelope)) {
  if (!layout_data_bounds(layout_, &true_lb_, &true_ub_)) true_lb_ = true_ub_ = 0;
  one_run_ = layout_.empty() || (layout_.size() == 1 && layout_[0].leaf() && layout_[0].count == 1);
  basic_ = signature_basic_type(signature_, &basic_count_);
  refresh_label();
}

// MPI_LB and MPI_UB (MPI-1, removed in MPI 3.0) hold no data, so no basic element either, and
// mark the bound of a struct type that contains them, as a resized type's bounds do.
Datatype::Datatype(MPI_Datatype predefined)
    : Datatype(
          predefined_layout(predefined_type(predefined)),
          predefined == MPI_LB || predefined == MPI_UB ? Signature{} : basic_signature(predefined),
          TypeBounds{0, ptrdiff_t(predefined_type(predefined).extent), predefined == MPI_LB,
                     predefined == MPI_UB},
          predefined_type(predefined).align, Envelope{}) {
  handle_ = predefined;
  name_ = predefined_type(predefined).name;
  refresh_label();
  commit();
}

void Datatype::set_name(std::string name) {
  name_ = std::move(name);
  refresh_label();
}

void Datatype::set_handle(MPI_Datatype handle) {
  handle_ = handle;
  refresh_label();
}

void Datatype::refresh_label() {
  label_ = !name_.empty() ? name_ : "derived datatype " + std::to_string(handle_);
  info_ = DatatypeInfo{label_.c_str(), size_};
}

void Datatype::commit() {
  if (committed_) return;
  program_ = PackProgram(layout_, extent(), size_);
  committed_ = true;
}

std::shared_ptr<const Datatype> Datatype::share() const {
  if (std::shared_ptr<const Datatype> owned = weak_from_this().lock()) return owned;
  return std::shared_ptr<const Datatype>(std::shared_ptr<const Datatype>(), this);
}

std::shared_ptr<Datatype> Datatype::copy(Envelope envelope) const {
  auto t =
      std::make_shared<Datatype>(layout_, signature_, bounds_, alignment_, std::move(envelope));
  if (committed_) t->commit();
  return t;
}

}  // namespace weft
