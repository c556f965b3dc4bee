#pragma once
// Text inputs saved by spreadsheet programs and Windows editors often begin with a UTF-8 byte
// order mark (EF BB BF). It is not part of the first field or option name, so the readers of CSV
// tables, config files and din traces drop it.
#include <string_view>

namespace cachesim {

inline constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

inline std::string_view without_byte_order_mark(std::string_view text) {
    if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
    return text;
}

}  // namespace cachesim
