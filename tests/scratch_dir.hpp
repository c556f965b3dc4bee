#pragma once
// Empty directories for tests that write files, and a count of what a run left in one.
#include <cstddef>
#include <filesystem>

namespace cachesim::test {

// Removes `dir` with everything in it and creates it again, empty.
inline std::filesystem::path fresh_dir(const std::filesystem::path& dir) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// How many entries `dir` holds (a leftover temporary shows up as one more).
inline std::size_t files_in(const std::filesystem::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace cachesim::test
