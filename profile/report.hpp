// The job's profile drawn as text (for rank 0's stderr) and as one self-contained HTML page
// (inline SVG, no script, nothing fetched). Pure.
#pragma once
#include <string>

#include "profile/summary.hpp"

namespace weft::profile {

// Where the report's other parts went, for the text to point at ("" when not written).
struct ReportFiles {
  std::string html;
  std::string trace;
};

// Matrices up to this many ranks are printed whole in the text; larger ones as the heaviest pairs.
inline constexpr int kTextMatrixRanks = 16;

std::string text_report(const JobSummary& job, const ReportFiles& files);
std::string html_report(const JobSummary& job, const std::string& title);

// Formatting shared by both reports.
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string site_place(const SiteSummary& site);  // "main (app.c:12) in app+0x1234"

}  // namespace weft::profile
