#pragma once
// Where a --config file set an option, so that a message about the value can say so: options are
// checked long after the file is read, and a message naming only `--l1-size` sends the user to a
// command line that never said it.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cachesim::cli {

struct ConfigOrigin {
    std::string name;   // the option, without "--"
    std::string value;  // as the file gives it
    std::string file;
    int line = 0;  // 1-based; 0 where the line was not found
};

// Where `message` first names option `name` (without "--") as --name, not as the start of a longer
// option (--l1-size in --l1-size-lines); npos where it does not.
std::size_t option_named_at(std::string_view message, std::string_view name);

// The line of `text` (a config file) that sets `name` first, 1-based; 0 if none does.
int config_line_of(std::string_view text, std::string_view name);

// Replaces the remembered settings (the last --config file read, less what the command line gave).
void remember_config_origins(std::vector<ConfigOrigin> origins);

// " (set in --config FILE line N: name = value)" for the first remembered setting `message` is
// about: one it names as --name, or whose value it quotes ('value') or starts with ("value: ").
// Empty where none.
std::string config_origin_note(std::string_view message);

// "--config FILE line N" where the remembered file set option `name` (without "--"); empty where
// it did not (the command line gave it, or no file was read).
std::string config_origin_of(std::string_view name);

}  // namespace cachesim::cli
