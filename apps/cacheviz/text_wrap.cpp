#include "apps/cacheviz/text_wrap.hpp"

#include <imgui.h>

#include <algorithm>

namespace cachesim::gui {

std::string wrap_at_spaces(const std::string& text, float width) {
    std::string out;
    std::size_t from = 0;
    while (true) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        std::string line;
        bool has_word = false;
        for (std::size_t at = from; at < end;) {
            const std::size_t word = std::min(text.find_first_not_of(' ', at), end);
            if (word == end) break;
            const std::size_t word_end = std::min(text.find(' ', word), end);
            // The spaces before the first word stay (an indent); those at a break go.
            std::string longer = line + text.substr(at, word_end - at);
            if (has_word && ImGui::CalcTextSize(longer.c_str()).x > width) {
                out += line + "\n";
                longer = text.substr(word, word_end - word);
            }
            line = std::move(longer);
            has_word = true;
            at = word_end;
        }
        out += line;
        if (end == text.size()) return out;
        out += "\n";
        from = end + 1;
    }
}

}  // namespace cachesim::gui
