#include "traces/accelsim_reader.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <istream>
#include <limits>
#include <streambuf>
#include <string_view>
#include <unistd.h>

#include "sim/text.hpp"
#include "traces/input_error.hpp"
#include "traces/output_cleanup.hpp"
#include "traces/text_bom.hpp"
#include "traces/input_stream.hpp"
#include "traces/trace_format_writer.hpp"

namespace cachesim::accelsim {

namespace {

// The newest instruction line format read here: version 5 writes lines as version 4 does (an
// immediate may end them); a later version may not, so it is refused rather than misread.
constexpr std::uint32_t kNewestTracerVersion = 5;

// Whitespace-separated tokens of a line.
class Tokens {
public:
    explicit Tokens(std::string_view line) : rest_(line) {}
    bool next(std::string_view& token) {
        std::size_t i = 0;
        while (i < rest_.size() && (rest_[i] == ' ' || rest_[i] == '\t' || rest_[i] == '\r')) ++i;
        rest_.remove_prefix(i);
        if (rest_.empty()) return false;
        std::size_t j = 0;
        while (j < rest_.size() && rest_[j] != ' ' && rest_[j] != '\t' && rest_[j] != '\r') ++j;
        token = rest_.substr(0, j);
        rest_.remove_prefix(j);
        return true;
    }

private:
    std::string_view rest_;
};

template <typename T>
bool parse_decimal(std::string_view s, T& out) {
    if (s.empty()) return false;
    if (s.front() == '+') s.remove_prefix(1);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 10);
    return ec == std::errc() && end == s.data() + s.size();
}

// Hex as the tracer prints it: with or without "0x", at most `digits` digits.
bool parse_hex(std::string_view s, std::uint64_t& out, std::size_t digits = 16) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    if (s.empty() || s.size() > digits) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
    return ec == std::errc() && end == s.data() + s.size();
}

bool is_register(std::string_view s) {
    if (s.starts_with("UR")) s.remove_prefix(2);
    else if (s.starts_with("R")) s.remove_prefix(1);
    else return false;
    std::uint32_t n = 0;
    return parse_decimal(s, n);
}

bool is_opcode(std::string_view s) {
    if (s.empty() || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_';
    });
}

enum class Space { global_load, global_store, global_atomic, generic_load, generic_store, shared, local, constant, other };

// By the opcode's first token (before the first '.'), as Accel-Sim's trace-driven front end
// assigns memory spaces.
Space space_of(std::string_view opcode) {
    const std::string_view op = opcode.substr(0, opcode.find('.'));
    if (op == "LDG" || op == "LDGSTS") return Space::global_load;
    if (op == "STG") return Space::global_store;
    if (op == "ATOM" || op == "ATOMG" || op == "RED") return Space::global_atomic;
    if (op == "LD") return Space::generic_load;
    if (op == "ST") return Space::generic_store;
    if (op == "LDS" || op == "STS" || op == "ATOMS" || op == "LDSM") return Space::shared;
    if (op == "LDL" || op == "STL") return Space::local;
    if (op == "LDC" || op == "ULDC") return Space::constant;
    return Space::other;
}

std::string hex(std::uint64_t v) {
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v, 16);
    return "0x" + std::string(buffer, end);
}

// base + offset, false where the sum leaves 0 .. 2^64 - 1: no traced address wraps, so a stride
// or delta that carries a lane past either end is a damaged line, not an address.
bool offset_address(std::uint64_t base, std::int64_t offset, std::uint64_t& out) {
    const auto as_unsigned = static_cast<std::uint64_t>(offset);
    const std::uint64_t magnitude = offset < 0 ? 0 - as_unsigned : as_unsigned;
    if (offset < 0 ? base < magnitude : base > ~0ull - magnitude) return false;
    out = offset < 0 ? base - magnitude : base + magnitude;
    return true;
}

// "x,y,z" of 32-bit values.
bool parse_xyz(std::string_view s, std::uint32_t out[3]) {
    for (int i = 0; i < 3; ++i) {
        const std::size_t comma = i < 2 ? s.find(',') : s.size();
        if (comma == std::string_view::npos) return false;
        if (!parse_decimal(trim_blanks(s.substr(0, comma)), out[i])) return false;
        s = i < 2 ? s.substr(comma + 1) : std::string_view();
    }
    return true;
}

// "(x,y,z)".
bool parse_dim3(std::string_view s, std::uint32_t out[3]) {
    s = trim_blanks(s);
    if (s.size() < 2 || s.front() != '(' || s.back() != ')') return false;
    return parse_xyz(s.substr(1, s.size() - 2), out);
}

}  // namespace

TracegReader::TracegReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {
    // The header: '-' lines (and comments, blank lines) up to the first thread block.
    while (read_line()) {
        const std::string_view t = trim_blanks(line_);
        if (t.empty()) continue;
        if (t.front() == '-') {
            header_line();
            continue;
        }
        if (t.front() == '#' && t != "#BEGIN_TB" && t != "#END_TB") continue;
        pending_line_ = true;
        break;
    }
    begin_header_end();
}

bool TracegReader::read_line() {
    if (!std::getline(in_, line_)) {
        if (in_.bad()) fail("read error");
        return false;
    }
    ++line_number_;
    // An editor's byte order mark is not part of the first header line.
    if (line_number_ == 1 && line_.starts_with(kUtf8ByteOrderMark)) line_.erase(0, kUtf8ByteOrderMark.size());
    return true;
}

void TracegReader::fail(const std::string& why) const {
    throw InputError(name_ + ":" + std::to_string(line_number_) + ": " + why);
}

void TracegReader::header_line() {
    const std::string_view t = trim_blanks(line_);
    const std::size_t equals = t.find('=');
    if (equals == std::string_view::npos) fail("header line '" + std::string(t) + "' has no '='");
    const std::string_view key = trim_blanks(t.substr(1, equals - 1));
    const std::string_view value = trim_blanks(t.substr(equals + 1));
    if (std::find(header_keys_.begin(), header_keys_.end(), key) != header_keys_.end())
        fail("'-" + std::string(key) + "' is given twice in the header");
    header_keys_.emplace_back(key);
    auto number = [&](auto& out) {
        if (!parse_decimal(value, out)) fail("'-" + std::string(key) + "': expected a number, not '" + std::string(value) + "'");
    };
    auto address = [&](std::uint64_t& out) {
        if (!parse_hex(value, out)) fail("'-" + std::string(key) + "': expected a hex address, not '" + std::string(value) + "'");
    };
    if (key == "kernel name") {
        kernel_.name = value;
    } else if (key == "kernel id") {
        number(kernel_.id);
    } else if (key == "grid dim" || key == "block dim") {
        const bool grid = key == "grid dim";
        std::uint32_t* d = grid ? kernel_.launch.grid : kernel_.launch.block;
        if (!parse_dim3(value, d)) fail("'-" + std::string(key) + "': expected (x,y,z), not '" + std::string(value) + "'");
        const std::uint64_t max[3] = {grid ? 0x7fffffffu : 1024u, grid ? 65535u : 1024u, grid ? 65535u : 64u};
        for (int i = 0; i < 3; ++i)
            if (d[i] == 0 || d[i] > max[i])
                fail("'-" + std::string(key) + " = " + std::string(value) + "': " + "xyz"[i] + " must be 1.." +
                     std::to_string(max[i]));
        if (!grid && kernel_.launch.threads_per_block() > cst::kMaxThreadsPerBlock)
            fail("'-block dim = " + std::string(value) + "': more than " + std::to_string(cst::kMaxThreadsPerBlock) +
                 " threads per block");
        (grid ? have_grid_ : have_block_) = true;
    } else if (key == "shmem" || key == "nregs") {
        std::uint32_t n = 0;
        number(n);
        const std::uint32_t most = key == "shmem" ? cst::kMaxSmemPerBlockBytes : cst::kMaxRegsPerThread;
        if (n > most) fail("'-" + std::string(key) + " = " + std::string(value) + "': at most " + std::to_string(most));
        (key == "shmem" ? shmem_bytes_ : regs_per_thread_) = n;
    } else if (key == "binary version" || key == "cuda stream id") {
        std::uint64_t ignored = 0;
        number(ignored);
    } else if (key == "shmem base_addr") {
        address(kernel_.shmem_base);
    } else if (key == "local mem base_addr") {
        address(kernel_.local_base);
    } else if (key == "nvbit version") {
        // free text
    } else if (key == "accelsim tracer version") {
        // "3", or "1.2" in the oldest traces: the integer part decides the instruction format.
        const std::string_view whole = value.substr(0, value.find('.'));
        std::uint32_t v = 0;
        if (!parse_decimal(whole, v)) fail("'-accelsim tracer version': expected a number, not '" + std::string(value) + "'");
        if (v > kNewestTracerVersion)
            fail("'-accelsim tracer version = " + std::string(value) + "': newer than the formats this reader knows "
                 "(up to version " + std::to_string(kNewestTracerVersion) + ")");
        kernel_.tracer_version = v;
    } else if (key == "enable lineinfo") {
        std::uint32_t v = 0;
        number(v);
        if (v > 1) fail("'-enable lineinfo' must be 0 or 1, not " + std::string(value));
        kernel_.lineinfo = v == 1;
    } else {
        fail("unknown header line '" + std::string(t) + "'");
    }
}

namespace {

// A byte no text line holds: the input is not an Accel-Sim trace at all (a binary or compressed
// file named .traceg), which a complaint about its header would hide.
bool holds_binary_bytes(std::string_view line) {
    return std::any_of(line.begin(), line.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b < 0x20 && b != '\t' && b != '\r';
    });
}

}  // namespace

void TracegReader::begin_header_end() {
    if (line_number_ == 0)
        throw InputError(name_ + ": the file is empty (an Accel-Sim kernel trace starts with its '-grid dim' header)");
    if (!have_grid_ && holds_binary_bytes(line_))
        fail("binary data, not an Accel-Sim kernel trace (text lines, starting with a '-grid dim = (x,y,z)' header)");
    if (!have_grid_) fail("the header has no '-grid dim = (x,y,z)' line");
    if (!have_block_) fail("the header has no '-block dim = (x,y,z)' line");
    // The tracer writes both; one without the other leaves the block's residency half told.
    if (shmem_bytes_.has_value() != regs_per_thread_.has_value())
        fail(std::string("the header has '-") + (shmem_bytes_ ? "shmem" : "nregs") + "' without '-" +
             (shmem_bytes_ ? "nregs" : "shmem") + "'");
    if (shmem_bytes_) kernel_.resources = cst::LaunchResources{*shmem_bytes_, *regs_per_thread_};
    warps_per_block_ = (kernel_.launch.threads_per_block() + kWarpSize - 1) / kWarpSize;
    state_ = State::between_blocks;
}

void TracegReader::thread_block_line() {
    const std::string_view t = trim_blanks(line_);
    const std::size_t equals = t.find('=');
    std::string_view v = trim_blanks(t.substr(equals + 1));
    std::uint32_t xyz[3];
    if (!parse_xyz(v, xyz)) fail("'thread block = x,y,z': cannot read '" + std::string(v) + "'");
    const std::uint32_t* g = kernel_.launch.grid;
    for (int i = 0; i < 3; ++i)
        if (xyz[i] >= g[i])
            fail("thread block " + std::string(v) + " is outside the launch (" + kernel_.launch.describe() + ")");
    const std::uint64_t linear =
        xyz[0] + static_cast<std::uint64_t>(g[0]) * (xyz[1] + static_cast<std::uint64_t>(g[1]) * xyz[2]);
    if (any_block_ && linear <= last_block_)
        fail("thread block " + std::string(v) + " comes after a block at or beyond it: blocks must be in launch order "
             "(x fastest), as post-traces-processing writes them");
    std::copy(xyz, xyz + 3, block_xyz_);
    block_ = linear;
    last_block_ = linear;
    any_block_ = true;
    ++blocks_read_;
    block_named_ = true;
}

void TracegReader::warp_line(WarpAccesses& out) {
    const std::string_view t = trim_blanks(line_);
    const std::string_view v = trim_blanks(t.substr(t.find('=') + 1));
    std::uint32_t w = 0;
    if (!parse_decimal(v, w)) fail("'warp = N': cannot read '" + std::string(v) + "'");
    if (w >= warps_per_block_)
        fail("warp " + std::string(v) + " is beyond the block's " + std::to_string(warps_per_block_) + " warps (block " +
             kernel_.launch.describe() + ")");
    if (static_cast<std::int64_t>(w) <= last_warp_)
        fail("warp " + std::string(v) + " comes after warp " + std::to_string(last_warp_) +
             ": warps of a block must increase");
    last_warp_ = w;
    warp_ = w;
    out.block = block_;
    out.warp = w;
    out.lanes = std::min(kWarpSize, kernel_.launch.threads_per_block() - w * kWarpSize);
    out.line = line_number_;
    for (auto& l : out.lane) l.clear();
    state_ = State::warp_named;
}

void TracegReader::insts_line() {
    const std::string_view t = trim_blanks(line_);
    const std::string_view v = trim_blanks(t.substr(t.find('=') + 1));
    if (!parse_decimal(v, remaining_)) fail("'insts = N': cannot read '" + std::string(v) + "'");
    state_ = State::instructions;
}

bool TracegReader::next_warp(WarpAccesses& out) {
    for (;;) {
        if (state_ == State::instructions && remaining_ == 0) {
            state_ = State::block_begun;
            ++counts_.warps;
            profiler_.end_warp();
            return true;
        }
        if (pending_line_) {
            pending_line_ = false;
        } else if (!read_line()) {
            if (state_ == State::instructions)
                fail("the file ends inside warp " + std::to_string(warp_) + ": " + std::to_string(remaining_) +
                     " of its instructions are missing");
            if (state_ != State::between_blocks)
                fail("the file ends inside the thread block begun at line " + std::to_string(block_begun_at_) +
                     " (no #END_TB)");
            return false;
        }
        const std::string_view t = trim_blanks(line_);
        if (t.empty()) continue;
        Tokens tokens(t);
        std::string_view first, second;
        tokens.next(first);
        tokens.next(second);
        const bool directive = first == "#BEGIN_TB" || first == "#END_TB" || (first == "thread" && second == "block") ||
                               first == "warp" || first == "insts";
        if (state_ == State::instructions && directive)
            fail("warp " + std::to_string(warp_) + " is truncated: '" + std::string(t) + "' comes with " +
                 std::to_string(remaining_) + " of its 'insts' still to come");
        if (first == "#BEGIN_TB") {
            if (state_ != State::between_blocks)
                fail("#BEGIN_TB inside the thread block begun at line " + std::to_string(block_begun_at_));
            state_ = State::block_begun;
            block_begun_at_ = line_number_;
            block_named_ = false;
            last_warp_ = -1;
        } else if (first == "#END_TB") {
            if (state_ == State::between_blocks) fail("#END_TB without #BEGIN_TB");
            if (state_ == State::warp_named) fail("#END_TB right after 'warp =': no 'insts =' line");
            state_ = State::between_blocks;
        } else if (t.front() == '#') {
            // a comment (the tracer's "#traces format = ..." line)
        } else if (t.front() == '-') {
            fail("header line '" + std::string(t) + "' after the first thread block");
        } else if (first == "thread" && second == "block") {
            if (state_ == State::between_blocks) fail("'thread block =' outside #BEGIN_TB .. #END_TB");
            if (block_named_) fail("a second 'thread block =' line in the block begun at line " + std::to_string(block_begun_at_));
            thread_block_line();
        } else if (first == "warp") {
            if (state_ == State::between_blocks || !block_named_) fail("'warp =' before the block's 'thread block =' line");
            if (state_ == State::warp_named) fail("'warp =' right after 'warp =': no 'insts =' line");
            warp_line(out);
        } else if (first == "insts") {
            if (state_ != State::warp_named) fail("'insts =' without a 'warp =' line before it");
            insts_line();
        } else if (state_ == State::instructions) {
            instruction_line(out);
            --remaining_;
        } else {
            std::uint64_t pc = 0;
            if (parse_hex(first, pc) && state_ != State::between_blocks && state_ != State::warp_named)
                fail("instruction line beyond the warp's 'insts = N' count");
            if (parse_hex(first, pc))
                fail("instruction line outside a warp (a kernel-N.trace before post-traces-processing? it "
                     "groups the instructions by block and warp into kernel-N.traceg)");
            fail("unknown line '" + std::string(t.substr(0, 80)) + "'");
        }
    }
}

void TracegReader::instruction_line(WarpAccesses& out) {
    Tokens tokens(trim_blanks(line_));
    std::string_view tok;
    auto need = [&](const char* what) {
        if (!tokens.next(tok)) fail(std::string("truncated instruction: no ") + what);
        return tok;
    };
    auto decimal = [&](const char* what, auto& value) {
        need(what);
        if (!parse_decimal(tok, value)) fail(std::string("bad ") + what + " '" + std::string(tok) + "'");
    };
    ++counts_.instructions;
    if (kernel_.tracer_version < 3) {  // the block and warp before every instruction
        std::uint32_t ids[4];
        const char* names[4] = {"block x", "block y", "block z", "warp id"};
        for (int i = 0; i < 4; ++i) decimal(names[i], ids[i]);
        if (ids[0] != block_xyz_[0] || ids[1] != block_xyz_[1] || ids[2] != block_xyz_[2] || ids[3] != warp_)
            fail("the instruction names block " + std::to_string(ids[0]) + "," + std::to_string(ids[1]) + "," +
                 std::to_string(ids[2]) + " warp " + std::to_string(ids[3]) + ", not the section's");
    }
    if (kernel_.lineinfo) {
        std::uint64_t source_line = 0;
        decimal("source line number", source_line);
    }
    std::uint64_t pc = 0, mask64 = 0;
    if (!parse_hex(need("PC"), pc)) fail("bad hex PC '" + std::string(tok) + "'");
    need("active mask");
    if (!parse_hex(tok, mask64, 8)) fail("bad hex active mask '" + std::string(tok) + "' (at most 8 hex digits)");
    const std::uint32_t mask = static_cast<std::uint32_t>(mask64);
    std::uint32_t registers = 0;
    decimal("destination register count", registers);
    if (registers > kWarpSize) fail("destination register count " + std::to_string(registers) + " is implausible");
    for (std::uint32_t i = 0; i < registers; ++i)
        if (!is_register(need("destination register"))) fail("bad destination register '" + std::string(tok) + "'");
    const std::string_view opcode = need("opcode");
    if (!is_opcode(opcode)) fail("bad opcode '" + std::string(opcode) + "'");
    profiler_.add(pc, opcode);
    decimal("source register count", registers);
    if (registers > kWarpSize) fail("source register count " + std::to_string(registers) + " is implausible");
    for (std::uint32_t i = 0; i < registers; ++i)
        if (!is_register(need("source register"))) fail("bad source register '" + std::string(tok) + "'");
    std::uint32_t width = 0;
    decimal("memory width", width);
    if (width > cst::kMaxAccessSize) fail("memory width " + std::to_string(width) + " is out of range (0.." +
                                          std::to_string(cst::kMaxAccessSize) + ")");
    const int active = std::popcount(mask);
    std::uint64_t address[kWarpSize] = {};
    if (width > 0) {
        std::uint32_t mode = 0;
        decimal("address format", mode);
        if (mode > 2) fail("unknown address format " + std::to_string(mode) + " (0 list-all, 1 base-stride, 2 base-delta)");
        if (mode == 0) {  // one address per active lane
            for (std::uint32_t l = 0; l < kWarpSize; ++l)
                if (mask >> l & 1) {
                    if (!tokens.next(tok))
                        fail("truncated instruction: " + std::to_string(active) + " active lanes but fewer addresses");
                    if (!parse_hex(tok, address[l])) fail("bad hex address '" + std::string(tok) + "'");
                }
        } else {
            std::uint64_t base = 0;
            if (!parse_hex(need("base address"), base)) fail("bad hex base address '" + std::string(tok) + "'");
            if (mode == 1) {  // base and stride over contiguous active lanes
                std::int64_t stride = 0;
                decimal("stride", stride);
                if (mask != 0 && std::popcount(mask >> std::countr_zero(mask)) != std::countr_one(mask >> std::countr_zero(mask)))
                    fail("base-stride addresses need contiguous active lanes, not mask " + hex(mask));
                std::uint64_t a = base;
                bool first = true;
                for (std::uint32_t l = 0; l < kWarpSize; ++l)
                    if (mask >> l & 1) {
                        if (!first && !offset_address(a, stride, a))
                            fail("stride " + std::to_string(stride) + " from base " + hex(base) + " carries active lane " +
                                 std::to_string(l) + " outside the 64-bit address space");
                        address[l] = a;
                        first = false;
                    }
            } else {  // base, then each further active lane's delta from the previous one
                std::uint64_t a = base;
                bool first = true;
                for (std::uint32_t l = 0; l < kWarpSize; ++l)
                    if (mask >> l & 1) {
                        if (!first) {
                            std::int64_t delta = 0;
                            if (!tokens.next(tok))
                                fail("truncated instruction: " + std::to_string(active) + " active lanes need " +
                                     std::to_string(active - 1) + " deltas");
                            if (!parse_decimal(tok, delta)) fail("bad address delta '" + std::string(tok) + "'");
                            if (!offset_address(a, delta, a))
                                fail("delta " + std::string(tok) + " carries active lane " + std::to_string(l) +
                                     " outside the 64-bit address space");
                        }
                        address[l] = a;
                        first = false;
                    }
            }
        }
    }
    // From tracer version 4 an immediate may end the line; anything else is too much.
    if (tokens.next(tok)) {
        std::int64_t immediate = 0;
        const bool is_immediate = kernel_.tracer_version >= 4 && parse_decimal(tok, immediate);
        if (!is_immediate || tokens.next(tok)) {
            if (width > 0) fail("more addresses than the " + std::to_string(active) + " active lanes of mask " + hex(mask));
            fail("unexpected '" + std::string(tok) + "' after the instruction's fields");
        }
    }

    if (width == 0) {
        ++counts_.non_memory;
        return;
    }
    Space space = space_of(opcode);
    if (space == Space::generic_load || space == Space::generic_store) {
        // Accel-Sim resolves a generic access by its first active lane's address: the shared window
        // [shmem base, local base), the local window [local base, + 16 KiB), else global; without
        // both base addresses it takes shared. Without an active lane it counts as global (and
        // makes no access).
        if (mask != 0) {
            const std::uint64_t a = address[std::countr_zero(mask)];
            const std::uint64_t shmem = kernel_.shmem_base, local = kernel_.local_base;
            if (shmem == 0 || local == 0 || (a >= shmem && a < local)) {
                ++counts_.shared;
                return;
            }
            if (a >= local && a - local < kLocalWindowBytes) {
                ++counts_.local;
                return;
            }
        }
        space = space == Space::generic_load ? Space::global_load : Space::global_store;
    }
    switch (space) {
    case Space::shared: ++counts_.shared; return;
    case Space::local: ++counts_.local; return;
    case Space::constant: ++counts_.constant; return;
    case Space::other: ++counts_.other_memory; return;
    case Space::global_load:
        ++counts_.global_loads;
        if (mask != 0) profiler_.load_request();
        break;
    case Space::global_store: ++counts_.global_stores; break;
    default: ++counts_.global_atomics; break;
    }
    if (mask == 0) {
        ++counts_.global_no_lanes;
        return;
    }
    if (out.lanes < kWarpSize && (mask >> out.lanes) != 0)
        fail("active lane " + std::to_string(std::countr_zero(mask >> out.lanes) + out.lanes) + " of warp " +
             std::to_string(warp_) + " is beyond the block's " + std::to_string(kernel_.launch.threads_per_block()) +
             " threads");
    for (std::uint32_t l = 0; l < kWarpSize; ++l) {
        if (!(mask >> l & 1)) continue;
        if (address[l] > ~0ull - (width - 1)) fail("address " + hex(address[l]) + " + width " + std::to_string(width) + " passes 2^64");
        std::vector<Access>& lane = out.lane[l];
        if (lane.size() + 1 > cst::kMaxAccessesPerStep)
            fail("thread " + std::to_string(warp_ * kWarpSize + l) + " of the block has more than " +
                 std::to_string(cst::kMaxAccessesPerStep) + " global accesses (a cst thread's limit)");
        // An atomic is performed at the L2, never looked up in the L1 (Nsight counts it apart
        // from the loads, as op_atom or op_red): the replay sends it down as a store does.
        lane.push_back(Access{address[l], width, 0, space != Space::global_load});
        ++counts_.accesses;
    }
}

namespace {

// Appends the array(s) of the `pages` touched pages from page `first`: one row up to 4 GiB
// (widths are 32-bit); beyond, rows of 1 GiB, or past 2^32 such rows (2^62 bytes) rows of 2^30
// page-sized elements, the last row running on past the pages. Where that would pass 2^64, the
// part row is an array of its own, so that every array ends at or below 2^64.
void add_region(std::vector<ArrayInfo>& arrays, std::uint64_t first, std::uint64_t pages) {
    constexpr std::uint64_t kPageBytes = 1ull << kPageShift;
    constexpr std::uint64_t kPagesPerGiB = 1ull << (30 - kPageShift);
    ArrayInfo a;
    a.base = first << kPageShift;
    a.elem_bytes = 1;
    if (pages <= 0xffffffffull / kPageBytes) {
        a.width = static_cast<std::uint32_t>(pages * kPageBytes);
        a.height = 1;
        a.name = "global" + std::to_string(arrays.size());
        arrays.push_back(a);
        return;
    }
    std::uint64_t row_pages = kPagesPerGiB;
    if (pages > 0xffffffffull * kPagesPerGiB) {
        a.elem_bytes = static_cast<std::uint32_t>(kPageBytes);
        row_pages = 1ull << 30;
    }
    a.width = static_cast<std::uint32_t>(row_pages * kPageBytes / a.elem_bytes);
    const std::uint64_t whole_rows = pages / row_pages, part_pages = pages % row_pages;
    const std::uint64_t last_page = ~0ull >> kPageShift;
    // (in pages: first + rows x row_pages stays far below 2^64)
    const bool rounded_up_past_the_top = part_pages != 0 && first + (whole_rows + 1) * row_pages - 1 > last_page;
    a.height = static_cast<std::uint32_t>(whole_rows + (part_pages != 0 && !rounded_up_past_the_top ? 1 : 0));
    a.name = "global" + std::to_string(arrays.size());
    arrays.push_back(a);
    if (!rounded_up_past_the_top) return;
    ArrayInfo part = a;
    part.base = (first + whole_rows * row_pages) << kPageShift;
    part.width = static_cast<std::uint32_t>(part_pages * kPageBytes / a.elem_bytes);
    part.height = 1;
    part.name = "global" + std::to_string(arrays.size());
    arrays.push_back(part);
}

}  // namespace

std::vector<ArrayInfo> regions_for_pages(const std::vector<std::uint64_t>& pages) {
    if (pages.empty()) return {ArrayInfo{"global", 0, 1, 1, 1}};
    // Split at the widest gaps between touched pages, at most kMaxRegions - 1 of them.
    std::vector<std::pair<std::uint64_t, std::size_t>> gaps;  // (gap in pages, index of the page after it)
    for (std::size_t i = 1; i < pages.size(); ++i)
        if (pages[i] - pages[i - 1] > 1) gaps.push_back({pages[i] - pages[i - 1], i});
    if (gaps.size() > kMaxRegions - 1) {
        std::nth_element(gaps.begin(), gaps.begin() + (kMaxRegions - 1), gaps.end(),
                         [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
        gaps.resize(kMaxRegions - 1);
    }
    std::vector<std::size_t> starts = {0};
    for (const auto& g : gaps) starts.push_back(g.second);
    std::sort(starts.begin(), starts.end());
    starts.push_back(pages.size());
    std::vector<ArrayInfo> arrays;
    for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
        const std::uint64_t first = pages[starts[r]], last = pages[starts[r + 1] - 1];
        add_region(arrays, first, last - first + 1);
    }
    return arrays;
}

namespace {

// A std::istream's view of an InputStream, so that the line reader takes plain, gzip- or
// zstd-compressed files and pipes alike.
class InputStreamBuffer : public std::streambuf {
public:
    explicit InputStreamBuffer(InputStream& input) : input_(input), block_(InputStream::kBlockBytes) {}
    // Back to the first byte (InputError for a pipe, which can be read only once).
    void rewind() {
        input_.rewind();
        setg(nullptr, nullptr, nullptr);
    }

protected:
    int_type underflow() override {
        const std::size_t got = input_.read(block_.data(), block_.size());
        if (got == 0) return traits_type::eof();
        setg(block_.data(), block_.data(), block_.data() + got);
        return traits_type::to_int_type(block_[0]);
    }

private:
    InputStream& input_;
    std::vector<char> block_;
};

std::size_t region_of(const std::vector<ArrayInfo>& arrays, std::uint64_t address) {
    // The last region starting at or below the address (every access lies in one).
    const auto after = std::upper_bound(arrays.begin(), arrays.end(), address,
                                        [](std::uint64_t a, const ArrayInfo& r) { return a < r.base; });
    return after == arrays.begin() ? 0 : static_cast<std::size_t>(after - arrays.begin() - 1);
}

}  // namespace

TracegConversion convert_traceg(const std::string& in_path, const std::string& out_path, int zstd_level) {
    TracegConversion result;
    WarpAccesses warp;
    // Pass 1: check everything and collect the touched pages.
    std::vector<std::uint64_t> pages;
    InputStream input(in_path);
    InputStreamBuffer buffer(input);
    {
        std::istream in(&buffer);
        TracegReader reader(in, input.name());
        std::vector<std::uint64_t> recent;
        while (reader.next_warp(warp)) {
            for (const auto& lane : warp.lane)
                for (const Access& a : lane) {
                    const std::uint64_t first = a.address >> kPageShift, last = (a.address + a.size - 1) >> kPageShift;
                    for (std::uint64_t p = first; p <= last; ++p) recent.push_back(p);
                }
            if (recent.size() > (1u << 20)) {  // keep the set compact as it grows
                pages.insert(pages.end(), recent.begin(), recent.end());
                recent.clear();
                std::sort(pages.begin(), pages.end());
                pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
            }
        }
        pages.insert(pages.end(), recent.begin(), recent.end());
        std::sort(pages.begin(), pages.end());
        pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
        result.kernel = reader.kernel();
        result.counts = reader.counts();
        result.loop = reader.loop();
        // A launch replayed without some of its blocks would be another launch: a trace cut at a
        // block's end reads as whole, so the count is checked.
        const std::uint64_t blocks = result.kernel.launch.blocks();
        if (reader.blocks_read() != blocks)
            throw InputError(input.name() + ": holds " + std::to_string(reader.blocks_read()) + " of the " +
                             std::to_string(blocks) + " blocks of its launch (" + result.kernel.launch.describe() + ")" +
                             " (a file cut short?): a kernel trace holds every block of the launch");
        // An empty cst would only be refused later, by whatever reads it, far from the cause.
        if (pages.empty())
            throw InputError(input.name() + ": " +
                             (result.kernel.name.empty() ? std::string("the kernel") : "kernel '" + result.kernel.name + "'") +
                             " makes no global load, store or atomic with an active lane (" + describe(result.counts) +
                             "): there is nothing for the caches to replay, so no cst is written");
    }
    // Pass 2: write every thread's accesses, each tagged with its region.
    buffer.rewind();  // (before anything is written: a pipe cannot be read twice)
    cst::TraceHeader header;
    header.elem_bytes = 1;
    header.arrays = regions_for_pages(pages);
    header.launch = result.kernel.launch;
    if (!result.loop.empty()) header.loop = result.loop;
    header.resources = result.kernel.resources;
    cst::TraceWriter writer(out_path, header, zstd_level);
    std::istream in(&buffer);
    TracegReader reader(in, input.name());
    const std::uint64_t threads_per_block = result.kernel.launch.threads_per_block();
    while (reader.next_warp(warp)) {
        for (std::uint32_t l = 0; l < warp.lanes; ++l) {
            std::vector<Access>& lane = warp.lane[l];
            if (lane.empty()) continue;
            for (Access& a : lane) a.array = static_cast<std::uint16_t>(region_of(header.arrays, a.address));
            writer.append_thread(warp.block * threads_per_block + warp.warp * kWarpSize + l, lane.data(),
                                 static_cast<std::uint32_t>(lane.size()));
        }
    }
    result.header = writer.finish();
    return result;
}

ConvertedTrace::ConvertedTrace(const std::string& traceg_path) : source_path_(traceg_path) {
    std::string pattern = (std::filesystem::temp_directory_path() / "cachesim-traceg-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw InputError(traceg_path + ": cannot create a temporary directory to convert it");
    dir_ = pattern;
    path_ = (std::filesystem::path(dir_) / (std::filesystem::path(traceg_path).filename().string() + ".cst")).string();
    dir_slot_ = output_cleanup::register_path(dir_);
    path_slot_ = output_cleanup::register_path(path_);
    try {
        conversion_ = convert_traceg(traceg_path, path_);
    } catch (const InputError& e) {
        remove_files();
        // The temporary's name means nothing to the user: what is wrong in it is the traceg's.
        std::string message = e.what();
        if (message.rfind(path_, 0) == 0) message = traceg_path + " (its cst conversion)" + message.substr(path_.size());
        throw InputError(message);
    } catch (...) {
        remove_files();
        throw;
    }
}

void ConvertedTrace::remove_files() noexcept {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    output_cleanup::unregister(path_slot_);
    output_cleanup::unregister(dir_slot_);
}

ConvertedTrace::~ConvertedTrace() { remove_files(); }

std::string describe(const ImportCounts& c) {
    const std::uint64_t skipped = c.shared + c.local + c.constant + c.other_memory + c.non_memory;
    return std::to_string(c.instructions) + " warp instructions in " + std::to_string(c.warps) + " warps: " +
           std::to_string(c.global_loads) + " global loads, " + std::to_string(c.global_stores) + " stores, " +
           std::to_string(c.global_atomics) + " atomics (a store per lane, performed at the L2), " +
           std::to_string(c.global_no_lanes) + " of them with no active lane; skipped " + std::to_string(skipped) +
           ": " + std::to_string(c.shared) + " shared, " + std::to_string(c.local) + " local, " +
           std::to_string(c.constant) + " constant, " + std::to_string(c.other_memory) + " other memory, " +
           std::to_string(c.non_memory) + " non-memory";
}

}  // namespace cachesim::accelsim
