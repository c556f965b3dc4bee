#include "apps/gpubench/output_file.hpp"

#include <filesystem>

#include "traces/input_error.hpp"

namespace gpubench {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    if (path_ == "-") return;
    file_.open(path_ + ".partial");
    if (!file_) throw cachesim::InputError("cannot write '" + path_ + ".partial'");
}

void OutputFile::commit() {
    if (path_ == "-") {
        std::cout.flush();
        return;
    }
    file_.close();
    if (!file_) throw cachesim::InputError("writing '" + path_ + ".partial' failed");
    std::error_code ec;
    std::filesystem::rename(path_ + ".partial", path_, ec);
    if (ec) throw cachesim::InputError("cannot rename '" + path_ + ".partial' to '" + path_ + "': " + ec.message());
}

}  // namespace gpubench
