#pragma once
// A measured CSV as gpubench writes it, for the compare tests: the counter columns compare reads
// (no time columns) and 64x64 3x3 stencil rows with consistent counters (3000 of 4000 L1 sectors
// hit, 75%; 50 of 100 L2 sectors).
#include <string>

namespace cachesim::test {

inline const std::string kCounterHeader =
    "kernel,width,height,stencil_w,stencil_h,depth,schedule,block,elem_bytes,gpu,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,"
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,"
    "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum\n";

// One such row measured on `gpu`.
inline std::string stencil_row(const std::string& gpu, const std::string& schedule = "linear",
                               const std::string& block = "128") {
    return "stencil,64,64,3,3,0," + schedule + "," + block + ",4," + gpu + ",1000,4000,3000,75,100,50,6400\n";
}

}  // namespace cachesim::test
