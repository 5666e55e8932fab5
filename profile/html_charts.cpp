// Inline SVG for the HTML report. Every mark carries a <title> (the browser shows it on hover,
// no script needed) and data-* attributes naming what it stands for.
#include "profile/html_charts.hpp"

#include <algorithm>
#include <cmath>

#include "profile/report.hpp"

namespace weft::profile {
namespace {

constexpr int kPlotWidth = 640;  // pixels for the longest run / the matrix's side
constexpr int kLabelWidth = 70;

std::string mix(unsigned from, unsigned to, double t) {
  auto channel = [&](int shift) {
    const double a = (from >> shift) & 0xff, b = (to >> shift) & 0xff;
    return unsigned(std::lround(a + (b - a) * t));
  };
  return format("#%02x%02x%02x", channel(16), channel(8), channel(0));
}

std::string bytes_text(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? format("%llu B", (unsigned long long)bytes) : format("%.1f %s", v, units[u]);
}

// The functions that get a colour of their own: those with the most time over the job.
int coloured_functions(const JobSummary& job) {
  return int(std::min(job.functions.size(), std::size(kFunctionColours)));
}

// The colours' names from height `y` on, in rows as wide as the plot; `*bottom` is where the
// last row ends.
std::string legend(const JobSummary& job, int y, int* bottom) {
  std::string out;
  int x = kLabelWidth;
  for (int f = 0; f <= coloured_functions(job); ++f) {
    const bool other = f == coloured_functions(job);
    const std::string name = other ? "other" : job.functions[size_t(f)].name;
    const int width = 24 + int(name.size()) * 7;
    if (x > kLabelWidth && x + width > kLabelWidth + kPlotWidth) {
      x = kLabelWidth;
      y += 18;
    }
    out += format("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>", x, y,
                  other ? kOtherColour : kFunctionColours[f]);
    out += format("<text x=\"%d\" y=\"%d\">%s</text>", x + 16, y + 10, escape_html(name).c_str());
    x += width;
  }
  *bottom = y + 18;
  return out;
}

}  // namespace

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string heat_colour(uint64_t bytes, uint64_t max_bytes) {
  if (bytes == 0 || max_bytes == 0) return kNoTrafficColour;
  const double t = max_bytes == 1 ? 1 : std::log1p(double(bytes)) / std::log1p(double(max_bytes));
  return t < 0.5 ? mix(kLightest, kMiddle, t * 2) : mix(kMiddle, kDarkest, t * 2 - 1);
}

std::string mpi_time_bars_svg(const JobSummary& job) {
  const int n = job.nranks;
  const int row = n <= 32 ? 20 : std::max(3, 640 / n);
  const bool labels = row >= 12;
  const uint64_t longest = std::max<uint64_t>(1, *std::max_element(job.run_ns.begin(), job.run_ns.end()));
  const double scale = double(kPlotWidth) / double(longest);
  int height = 0;
  const std::string colours = legend(job, n * row + 14, &height);
  std::string out = format("<svg id=\"mpi-time-bars\" width=\"%d\" "
                           "height=\"%d\" role=\"img\" aria-label=\"time in MPI by rank and function\">",
                           kLabelWidth + kPlotWidth + 10, height);
  for (int r = 0; r < n; ++r) {
    const int y = r * row;
    if (labels) out += format("<text x=\"0\" y=\"%d\">rank %d</text>", y + row - 6, r);
    out += format("<rect class=\"run\" x=\"%d\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"#eeeeee\">"
                  "<title>rank %d: run %.3f s, in MPI %.3f s (%.1f%%)</title></rect>",
                  kLabelWidth, y + 1, double(job.run_ns[size_t(r)]) * scale, row - 2, r,
                  double(job.run_ns[size_t(r)]) / 1e9, double(job.mpi_ns[size_t(r)]) / 1e9,
                  100 * job.mpi_share(r));
    // Segments: the coloured functions in order, then the rest of the rank's time in MPI. A
    // function's time includes calls nested in other calls; the bar stops at the time in MPI.
    double x = kLabelWidth, left = double(job.mpi_ns[size_t(r)]);
    auto segment = [&](const std::string& name, const char* colour, double ns) {
      ns = std::min(ns, left);
      if (ns <= 0) return;
      out += format("<rect class=\"segment\" data-rank=\"%d\" data-function=\"%s\" data-ns=\"%.0f\" "
                    "x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>rank %d, %s: "
                    "%.3f ms</title></rect>",
                    r, escape_html(name).c_str(), ns, x, y + 1, ns * scale, row - 2, colour, r,
                    escape_html(name).c_str(), ns / 1e6);
      x += ns * scale;
      left -= ns;
    };
    for (int f = 0; f < coloured_functions(job); ++f)
      segment(job.functions[size_t(f)].name, kFunctionColours[f],
              double(job.functions[size_t(f)].ns_by_rank[size_t(r)]));
    segment("other", kOtherColour, left);
  }
  return out + colours + "</svg>";
}

std::string matrix_svg(const JobSummary& job) {
  const int n = job.nranks;
  const int block = (n + kMatrixCells - 1) / kMatrixCells;  // ranks per cell
  const int cells = (n + block - 1) / block;
  const double side = std::min(40.0, double(kPlotWidth) / cells);
  std::vector<uint64_t> bytes(size_t(cells) * size_t(cells), 0), messages(bytes.size(), 0);
  for (int from = 0; from < n; ++from)
    for (int to = 0; to < n; ++to) {
      const size_t cell = size_t(from / block) * size_t(cells) + size_t(to / block);
      bytes[cell] += job.matrix_bytes[size_t(from) * size_t(n) + size_t(to)];
      messages[cell] += job.matrix_messages[size_t(from) * size_t(n) + size_t(to)];
    }
  const uint64_t max_bytes = *std::max_element(bytes.begin(), bytes.end());
  const int top = 20, left = 50;
  std::string out = format("<svg id=\"comm-matrix\" width=\"%d\" "
                           "height=\"%d\" role=\"img\" aria-label=\"bytes sent from rank (row) to rank "
                           "(column)\">",
                           std::max(left + int(side * cells) + 10, 560), top + int(side * cells) + 50);
  const int tick = std::max(1, cells / 16);
  for (int c = 0; c < cells; c += tick) {
    out += format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>",
                  left + (c + 0.5) * side, top - 6, c * block);
    out += format("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>", left - 6,
                  top + (c + 0.5) * side + 4, c * block);
  }
  const char* stroke = side >= 8 ? " stroke=\"#dddddd\"" : "";
  for (int from = 0; from < cells; ++from)
    for (int to = 0; to < cells; ++to) {
      const size_t i = size_t(from) * size_t(cells) + size_t(to);
      const std::string who = block == 1 ? format("rank %d to rank %d", from, to)
                                         : format("ranks %d-%d to ranks %d-%d", from * block,
                                                  std::min(n, (from + 1) * block) - 1, to * block,
                                                  std::min(n, (to + 1) * block) - 1);
      out += format("<rect class=\"cell\" data-from=\"%d\" data-to=\"%d\" data-bytes=\"%llu\" "
                    "data-messages=\"%llu\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                    "fill=\"%s\"%s><title>%s: %s in %llu messages</title></rect>",
                    from * block, to * block, (unsigned long long)bytes[i],
                    (unsigned long long)messages[i], left + to * side, top + from * side, side, side,
                    heat_colour(bytes[i], max_bytes).c_str(), stroke, who.c_str(),
                    bytes_text(bytes[i]).c_str(), (unsigned long long)messages[i]);
    }
  // The scale: ten steps from the lightest to the darkest colour.
  const int scale_y = top + int(side * cells) + 14;
  for (int s = 0; s < 10; ++s) {
    const uint64_t b = max_bytes == 0 ? 0 : uint64_t(std::expm1(std::log1p(double(max_bytes)) * (s + 1) / 10));
    out += format("<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"12\" fill=\"%s\"/>", left + s * 24,
                  scale_y, heat_colour(std::max<uint64_t>(b, 1), max_bytes).c_str());
  }
  out += format("<text x=\"%d\" y=\"%d\">1 B to %s per %s (rows send, columns receive)</text>",
                left + 250, scale_y + 10, bytes_text(max_bytes).c_str(), block == 1 ? "pair" : "block");
  return out + "</svg>";
}

}  // namespace weft::profile
