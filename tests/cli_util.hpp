#pragma once
// Runs the cachesim binary (path from CACHESIM_BIN) and captures exit code, stdout and stderr.
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cachesim::test {

struct CommandResult {
    int exit_code = -1;
    std::string out, err;
};

inline std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// This process's own directory, emptied when first used: a process id is reused, and what an
// earlier test process left under the same id must not leak into this one's files.
inline std::filesystem::path temp_dir() {
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() /
                 ("cachesim-test-" + std::to_string(::getpid()));
        std::filesystem::remove_all(d);
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

// `args` is appended to the binary path as shell words (quote paths yourself if needed).
inline CommandResult run_cachesim(const std::string& args) {
    const char* bin = std::getenv("CACHESIM_BIN");
    CommandResult r;
    if (!bin) {
        r.err = "CACHESIM_BIN is not set";
        return r;
    }
    static int counter = 0;
    const auto out = temp_dir() / ("out" + std::to_string(counter) + ".txt");
    const auto err = temp_dir() / ("err" + std::to_string(counter++) + ".txt");
    const std::string command = std::string("'") + bin + "' " + args + " >'" + out.string() +
                                "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

// A CSV's lines split at every comma (no quoting: the sweep CSVs these tests compare hold none
// in the cells compared).
inline std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
        rows.push_back(fields);
    }
    return rows;
}

}  // namespace cachesim::test

namespace cachesim::test {

// Runs `shell` with sh -c, the word CACHESIM in it replaced by the quoted binary path (for
// pipelines such as "printf '0 10\n' | CACHESIM simulate --trace -").
inline CommandResult run_shell(std::string shell) {
    const char* bin = std::getenv("CACHESIM_BIN");
    CommandResult r;
    if (!bin) {
        r.err = "CACHESIM_BIN is not set";
        return r;
    }
    for (std::size_t at; (at = shell.find("CACHESIM")) != std::string::npos;)
        shell.replace(at, 8, std::string("'") + bin + "'");
    static int counter = 0;
    const auto out = temp_dir() / ("shell_out" + std::to_string(counter) + ".txt");
    const auto err = temp_dir() / ("shell_err" + std::to_string(counter++) + ".txt");
    const std::string command = "(" + shell + ") >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = read_file(out);
    r.err = read_file(err);
    return r;
}

}  // namespace cachesim::test
