#pragma once
// A CSV output that appears complete or not at all: rows go to PATH.partial as they are
// measured (so a long sweep that dies leaves its rows for inspection), and the file is renamed
// to PATH only by commit(). A symlink's target is the file replaced. "-" writes to standard
// output, and a path that is neither a file nor nothing yet (/dev/null, a FIFO) is written
// through: a file renamed over it would replace it.
#include <fstream>
#include <iostream>
#include <string>

namespace gpubench {

class OutputFile {
public:
    explicit OutputFile(std::string path);  // throws cachesim::InputError when it cannot be created
    std::ostream& stream() { return path_ == "-" ? std::cout : file_; }
    void commit();  // throws cachesim::InputError when writing or renaming failed

private:
    std::string path_;
    std::string target_;    // the file replaced (symlinks followed); path_ when written through
    bool through_ = false;  // written in place, nothing renamed
    std::ofstream file_;
    std::string written() const { return through_ ? target_ : target_ + ".partial"; }
};

}  // namespace gpubench
