// The two pictures of the HTML report as inline SVG: per-rank stacked bars of time in MPI by
// function, and the communication matrix as a heat map. Pure.
#pragma once
#include <string>

#include "profile/summary.hpp"

namespace weft::profile {

// Bar colours of the functions with the most time, in order; the rest share kOtherColour.
inline constexpr const char* kFunctionColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                                   "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};
inline constexpr const char* kOtherColour = "#9c9c9c";
// Heat map: no traffic, then light to dark with the logarithm of the bytes.
inline constexpr const char* kNoTrafficColour = "#ffffff";
inline constexpr unsigned kLightest = 0xdeebf7, kMiddle = 0x6baed6, kDarkest = 0x08306b;
// Above this many ranks a cell of the matrix stands for a block of ranks.
inline constexpr int kMatrixCells = 128;

std::string escape_html(const std::string& text);
// The heat map colour of `bytes` on a scale whose darkest is `max_bytes`.
std::string heat_colour(uint64_t bytes, uint64_t max_bytes);

std::string mpi_time_bars_svg(const JobSummary& job);
std::string matrix_svg(const JobSummary& job);

}  // namespace weft::profile
