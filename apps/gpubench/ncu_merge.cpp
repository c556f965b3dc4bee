#include "apps/gpubench/ncu_merge.hpp"

#include <charconv>

#include "apps/gpubench/csv.hpp"
#include "apps/gpubench/output_file.hpp"
#include "apps/gpubench/results.hpp"
#include "traces/input_error.hpp"

namespace gpubench {

using cachesim::InputError;

namespace {

// ncu writes numbers with thousands separators ("167,772,160"); those are dropped.
double parse_ncu_number(const std::string& text, const std::string& where) {
    std::string digits;
    for (char c : text)
        if (c != ',' && c != ' ') digits += c;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size())
        throw InputError(where + ": '" + text + "' is not a number");
    return value;
}

}  // namespace

void merge_ncu_csv(const std::string& ncu_csv, const std::string& rows_csv, const std::string& out_path) {
    const CsvTable rows = read_csv(rows_csv, "kernel,");
    const CsvTable ncu = read_csv(ncu_csv, "\"Kernel Name\"");
    const int kernel_name = ncu.column("Kernel Name");
    const int id = ncu.column("ID");
    const int row_kernel = rows.column("kernel");
    if (kernel_name < 0 || id < 0) throw InputError(ncu_csv + ": no 'ID' or 'Kernel Name' column");
    if (row_kernel < 0) throw InputError(rows_csv + ": no 'kernel' column");

    std::vector<const std::vector<std::string>*> launches;  // the units row has no ID
    for (const auto& r : ncu.rows)
        if (!r[id].empty()) launches.push_back(&r);
    if (launches.size() != rows.rows.size())
        throw InputError(ncu_csv + " has " + std::to_string(launches.size()) + " profiled launches but " +
                         rows_csv + " has " + std::to_string(rows.rows.size()) +
                         " rows (run ncu with --kernel-name regex:ProfiledLaunch)");

    const std::size_t first_metric = fixed_columns().size();
    for (std::size_t c = first_metric; c < rows.header.size(); ++c)
        if (is_spread_column(rows.header[c]))
            throw InputError(rows_csv + ": column '" + rows.header[c] +
                             "' is a CUPTI min/max column; --rows takes the CSV gpubench writes with --counters ncu");
    OutputFile output(out_path);
    std::ostream& out = output.stream();
    for (std::size_t c = 0; c < rows.header.size(); ++c) out << (c ? "," : "") << csv_field(rows.header[c]);
    out << "\n";
    for (std::size_t r = 0; r < rows.rows.size(); ++r) {
        const std::vector<std::string>& row = rows.rows[r];
        const std::vector<std::string>& launch = *launches[r];
        const std::string where = ncu_csv + " launch " + std::to_string(r + 1);
        if (launch[kernel_name].find(row[row_kernel] + "_kernel") == std::string::npos)
            throw InputError(where + ": kernel '" + launch[kernel_name] + "' does not match row " +
                             std::to_string(r + 1) + " of " + rows_csv + " (" + row[row_kernel] + ")");
        for (std::size_t c = 0; c < row.size(); ++c) {
            std::string value = row[c];
            if (c >= first_metric) {
                const int source = ncu.column(rows.header[c]);
                if (source < 0)
                    throw InputError(ncu_csv + ": no column '" + rows.header[c] + "' (pass it to ncu --metrics)");
                value = format_metric(parse_ncu_number(launch[source], where + ", column " + rows.header[c]));
            }
            out << (c ? "," : "") << csv_field(value);
        }
        out << "\n";
    }
    output.commit();
}

}  // namespace gpubench
