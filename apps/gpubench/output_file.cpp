#include "apps/gpubench/output_file.hpp"

#include <filesystem>

#include "traces/atomic_output.hpp"
#include "traces/input_error.hpp"

namespace gpubench {

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
    if (path_ == "-") return;
    through_ = !cachesim::is_replaced_file(path_);
    target_ = through_ ? path_ : cachesim::replaced_file_path(path_);
    file_.open(written());
    if (!file_) throw cachesim::InputError("cannot write '" + written() + "'");
}

void OutputFile::commit() {
    if (path_ == "-") {
        std::cout.flush();
        return;
    }
    file_.close();
    if (!file_) throw cachesim::InputError("writing '" + written() + "' failed");
    if (through_) return;
    std::error_code ec;
    std::filesystem::rename(written(), target_, ec);
    if (ec) throw cachesim::InputError("cannot rename '" + written() + "' to '" + target_ + "': " + ec.message());
}

}  // namespace gpubench
