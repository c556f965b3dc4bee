#pragma once
// A plain reader for the committed measurement tables (tests/data/h200/*.csv) and for CSV files
// the CLI writes: a header of column names, then rows of comma-separated fields, none quoted.
// It is written apart from the program's own readers, so that a test can check what the program
// read or wrote against the file itself.
#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cachesim::test {

class CsvTable {
public:
    explicit CsvTable(const std::string& text) {
        std::istringstream in(text);
        std::string line;
        if (std::getline(in, line)) header_ = split(line);
        while (std::getline(in, line))
            if (!line.empty()) rows_.push_back(split(line));
    }
    static CsvTable from_file(const std::string& path) {
        std::ifstream in(path);
        EXPECT_TRUE(in) << "cannot read " << path;
        std::ostringstream text;
        text << in.rdbuf();
        return CsvTable(text.str());
    }

    std::size_t rows() const { return rows_.size(); }
    bool has_column(const std::string& name) const { return find(name) < header_.size(); }
    const std::string& at(std::size_t row, const std::string& name) const {
        static const std::string none;
        const std::size_t c = find(name);
        if (c >= header_.size()) {
            ADD_FAILURE() << "no column " << name;
            return none;
        }
        if (c >= rows_.at(row).size()) {
            ADD_FAILURE() << "row " << row << " has no field for " << name;
            return none;
        }
        return rows_[row][c];
    }
    double number(std::size_t row, const std::string& name) const {
        const std::string& field = at(row, name);
        return field.empty() ? 0.0 : std::stod(field);
    }
    // The rows whose `column` holds each of the given values (all must match).
    std::vector<std::size_t> where(const std::vector<std::pair<std::string, std::string>>& match) const {
        std::vector<std::size_t> found;
        for (std::size_t r = 0; r < rows_.size(); ++r) {
            bool all = true;
            for (const auto& [name, value] : match) all = all && at(r, name) == value;
            if (all) found.push_back(r);
        }
        return found;
    }

private:
    static std::vector<std::string> split(const std::string& line) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = line.find(',', start);
            fields.push_back(line.substr(start, comma - start));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        return fields;
    }
    std::size_t find(const std::string& name) const {
        for (std::size_t c = 0; c < header_.size(); ++c)
            if (header_[c] == name) return c;
        return header_.size();
    }
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

inline std::string h200_data(const std::string& name) {
    return std::string(CACHESIM_TEST_DATA_DIR) + "/h200/" + name;
}

}  // namespace cachesim::test
