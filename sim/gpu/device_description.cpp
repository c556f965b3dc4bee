#include "sim/gpu/device_description.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "sim/gpu/compute_capabilities.hpp"

namespace cachesim {

namespace {

std::string cc_text(int major, int minor) { return std::to_string(major) + "." + std::to_string(minor); }

void require(std::uint64_t value, const char* what) {
    if (value == 0) throw std::invalid_argument(std::string("the device reports no ") + what);
}

std::string kib_list(const std::vector<std::uint32_t>& kib) {
    std::string text;
    for (std::uint32_t k : kib) {
        if (!text.empty()) text += ',';
        text += std::to_string(k);
    }
    return text;
}

}  // namespace

DeviceDescription describe_device(const DeviceFacts& f) {
    if (f.name.empty()) throw std::invalid_argument("the device reports no name");
    if (f.name.find_first_of("\r\n") != std::string::npos)
        throw std::invalid_argument("the device name holds a line break");
    require(f.sms, "SM count (multiProcessorCount)");
    require(f.l2_bytes, "L2 size (l2CacheSize)");
    require(f.threads_per_sm, "threads per SM (maxThreadsPerMultiProcessor)");
    require(f.blocks_per_sm, "blocks per SM (maxBlocksPerMultiProcessor)");
    require(f.regs_per_sm, "registers per SM (regsPerMultiprocessor)");
    require(f.smem_per_sm, "shared memory per SM (sharedMemPerMultiprocessor)");

    const ComputeCapability* known = find_compute_capability(f.major, f.minor);
    const ComputeCapability* cc = known ? known : nearest_compute_capability(f.major, f.minor);
    if (!cc)
        throw std::invalid_argument("compute capability " + cc_text(f.major, f.minor) +
                                    " is older than every one the GPU model knows (7.0 and later)");
    DeviceDescription d;
    const std::uint64_t device_largest_kib = f.smem_per_sm / 1024;
    std::vector<std::uint32_t> carveouts = carveouts_of(*cc);
    std::uint64_t unified_kib = cc->unified_l1_kib;
    if (!known || largest_carveout_kib(*cc) != device_largest_kib) {
        // What the largest carve-out leaves to the L1 on the nearest documented chip, beside the
        // device's largest carve-out; its carve-outs up to that one.
        const std::uint32_t l1_floor_kib = cc->unified_l1_kib - largest_carveout_kib(*cc);
        unified_kib = device_largest_kib + l1_floor_kib;
        std::erase_if(carveouts, [&](std::uint32_t k) { return k > device_largest_kib; });
        if (carveouts.empty() || carveouts.back() != device_largest_kib)
            carveouts.push_back(static_cast<std::uint32_t>(device_largest_kib));
        const std::string why = known ? "the device's largest shared-memory carve-out (" +
                                            std::to_string(device_largest_kib) +
                                            " KiB) is not the one documented for its compute capability"
                                      : "compute capability " + cc_text(f.major, f.minor) +
                                            " is not in the model's table";
        d.notes.push_back(why + ": unified-l1 is the device's largest carve-out plus the " +
                          std::to_string(l1_floor_kib) + " KiB of L1 it leaves on compute capability " +
                          cc_text(cc->major, cc->minor) + ", and carveouts are " + cc_text(cc->major, cc->minor) +
                          "'s up to the device's largest");
    }
    if (!known)
        d.notes.push_back("l2-partitions and everything the " + std::string(cc->base_preset) +
                          " preset sets are those of " + std::string(cc->architecture) + " (compute capability " +
                          cc_text(cc->major, cc->minor) + ")");

    std::ostringstream out;
    out << "# " << f.name << ", compute capability " << cc_text(f.major, f.minor);
    if (known) out << " (" << cc->architecture << ")";
    out << ": a GPU-model description for cachesim (--config FILE).\n"
        << "# From cudaGetDeviceProperties: sms, l2-size, threads-per-sm, blocks-per-sm, regs-per-sm,\n"
        << "# smem-reserved. From NVIDIA's documentation of compute capability " << cc_text(cc->major, cc->minor)
        << ": unified-l1,\n"
        << "# carveouts, l2-partitions. Everything else (L1 and L2 policies, timing mechanisms) is the\n"
        << "# " << cc->base_preset << " preset's: cachesim simulate --config FILE --explain says where each value "
        << "comes from.\n";
    for (const std::string& note : d.notes) out << "# assumed: " << note << ".\n";
    // compare --config notes rows measured on another GPU (the CUDA device name, as gpubench's
    // gpu column has it)
    out << "# device: " << f.name << "\n";
    out << "preset = " << cc->base_preset << "\n"
        << "sms = " << f.sms << "\n"
        << "l2-size = " << f.l2_bytes << "\n"
        << "threads-per-sm = " << f.threads_per_sm << "\n"
        << "blocks-per-sm = " << f.blocks_per_sm << "\n"
        << "regs-per-sm = " << f.regs_per_sm << "\n"
        << "smem-reserved = " << f.smem_reserved_per_block << "\n"
        << "unified-l1 = " << unified_kib << "K\n"
        << "carveouts = " << kib_list(carveouts) << "\n"
        << "l2-partitions = " << cc->l2_partitions << "\n";
    d.config = out.str();
    return d;
}

}  // namespace cachesim
