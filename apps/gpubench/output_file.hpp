#pragma once
// A CSV output that appears complete or not at all: rows go to PATH.partial as they are
// measured (so a long sweep that dies leaves its rows for inspection), and the file is renamed
// to PATH only by commit(). "-" writes to standard output.
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
    std::ofstream file_;
};

}  // namespace gpubench
