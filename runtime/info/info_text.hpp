// weft_info's numbers in words: byte counts in binary units, seconds in the unit that suits.
#pragma once
#include <string>

namespace weft::info {

std::string bytes_text(double n);    // "8 B", "1 MiB", "1.5 GiB"
std::string seconds_text(double s);  // "3.2 us", "1.05 ms", "2 s"

}  // namespace weft::info
