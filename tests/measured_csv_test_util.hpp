#pragma once
// Shared by the measured CSV tests: what parsing a file's text throws.
#include <string>

#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

namespace cachesim::test {

// gpubench's columns for a stencil row without loop counters or ranges, and a row of them
// (30 L1 hits of 40 sectors, the rate column 75% = 30 / 40).
inline const std::string kMeasuredHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,time_ms,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,"
    "lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n";
inline const std::string kMeasuredRow = "stencil,64,32,3,5,0,linear,128,4,H200,0.5,10,40,30,75,20,15,2048\n";

// kMeasuredHeader with one more column at its end.
inline std::string header_with(const std::string& column) {
    std::string header = kMeasuredHeader;
    header.insert(header.size() - 1, "," + column);
    return header;
}

// kMeasuredRow with more fields at its end ("74,76").
inline std::string row_with(const std::string& fields) {
    std::string row = kMeasuredRow;
    row.insert(row.size() - 1, "," + fields);
    return row;
}

// The InputError message parse_measured_csv gives `text` (as file m.csv), or "(no error)".
inline std::string measured_csv_error(const std::string& text) {
    try {
        parse_measured_csv(text, "m.csv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace cachesim::test
