#include "viz/array_view.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "traces/schedule.hpp"
#include "viz/notes.hpp"

namespace cachesim::viz {

std::uint32_t folded_row_width(std::uint64_t elements, std::uint32_t elements_per_line) {
    std::uint64_t width = 1;
    while (width * width < elements) width *= 2;
    // Whole lines per row when a line holds a power of two of elements (the usual case).
    if (std::has_single_bit(elements_per_line)) width = std::max<std::uint64_t>(width, elements_per_line);
    return static_cast<std::uint32_t>(width);
}

namespace {

// Whether any of the sorted accesses (address, bytes), none wider than `widest`, overlaps the
// element [address, address + bytes).
bool touches(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& accesses, std::uint32_t widest,
             std::uint64_t address, std::uint32_t bytes) {
    auto it = std::lower_bound(accesses.begin(), accesses.end(), std::pair{address + bytes, std::uint32_t{0}});
    while (it != accesses.begin()) {
        --it;
        if (it->first + std::max<std::uint32_t>(it->second, 1) > address) return true;
        if (address - it->first >= widest) break;  // every earlier one ends before the element
    }
    return false;
}

}  // namespace

ArrayView make_array_view(const RowLayout& rows, const LineSnapshot& snapshot,
                          const std::optional<WorkloadSpec>& workload) {
    ArrayView view;
    view.step = snapshot.step;
    // Addresses the step's work item touches.
    std::vector<std::uint64_t> touched;
    if (workload && snapshot.step < workload->items()) {
        const WorkloadSpec& w = *workload;
        const std::uint64_t item = schedule_map(w.schedule, snapshot.step, w.width, w.height);
        view.work_item = item;
        view.item_x = static_cast<std::uint32_t>(item % w.width);
        view.item_y = static_cast<std::uint32_t>(item / w.width);
        const StencilWorkload s = w.stencil();
        const MatmulWorkload m = w.matmul();
        for (std::uint32_t k = 0; k < w.accesses_per_item(); ++k) {
            const Access a = w.kind == WorkloadKind::stencil ? s.access(item, k) : m.access(item, k);
            touched.push_back(a.address);
        }
        std::sort(touched.begin(), touched.end());
        touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    }
    std::uint32_t widest = 1;
    if (snapshot.accesses)
        for (const auto& [address, bytes] : *snapshot.accesses) widest = std::max(widest, bytes);
    for (const RowGroup& g : rows.groups()) {
        const ArrayInfo& a = g.array;
        if (a.width == 0 || a.height == 0) continue;
        ArrayGrid grid;
        grid.name = a.name;
        grid.width = a.width;
        grid.height = a.height;
        grid.elements = static_cast<std::uint64_t>(a.width) * a.height;
        const std::uint32_t eb = std::max<std::uint32_t>(a.elem_bytes, 1);
        grid.elements_per_line = std::max<std::uint32_t>(1, rows.line_bytes() / eb);
        grid.first_element_offset = (a.base % rows.line_bytes()) / eb;
        if (a.height == 1 && a.width > kMaxFlatRow) {
            grid.folded = true;
            grid.width = folded_row_width(grid.elements, grid.elements_per_line);
            grid.height = static_cast<std::uint32_t>((grid.elements + grid.width - 1) / grid.width);
        }
        grid.cells.resize(static_cast<std::size_t>(grid.width) * grid.height, CellState::not_cached);
        for (std::uint64_t e = 0; e < grid.elements; ++e) {
            const std::uint64_t address = a.base + e * eb;
            const std::uint64_t row = rows.row_of_address(address);
            if (row == kNoRow || row >= snapshot.state.size()) continue;
            const bool accessed_now = workload              ? std::binary_search(touched.begin(), touched.end(), address)
                                      : snapshot.accesses ? touches(*snapshot.accesses, widest, address, eb)
                                                          : true;
            grid.cells[e] = accessed_now ? snapshot.state[row] : snapshot.residency[row];
        }
        view.arrays.push_back(std::move(grid));
    }
    return view;
}

StepUnit step_unit(bool gpu_model, bool trace, bool measured_order) {
    if (gpu_model) return measured_order ? StepUnit::measured_request : StepUnit::round;
    return trace ? StepUnit::recorded_thread : StepUnit::work_item;
}

ArrayView make_array_view(const RowLayout& rows, const LineSnapshot& snapshot,
                          const std::optional<WorkloadSpec>& workload, StepUnit unit) {
    ArrayView view = make_array_view(rows, snapshot, unit == StepUnit::work_item ? workload : std::nullopt);
    view.unit = unit;
    return view;
}

std::string array_view_heading(const ArrayView& view) {
    const std::string n = thousands(view.step);
    switch (view.unit) {
        case StepUnit::recorded_thread:
            return "step " + n + " of the recorded threads, in launch order (where each line is after it)";
        case StepUnit::round: return "round " + n + " (where each line is after the round)";
        case StepUnit::measured_request: return "request " + n + " of the measured order (where each line is after it)";
        case StepUnit::work_item: default:
            if (!view.work_item) return "step " + n;
            return "step " + n + ": work item (" + std::to_string(view.item_x) + ", " + std::to_string(view.item_y) + ")";
    }
}

namespace {

// An array far smaller than the others is drawn at least this many pixels an element along its
// longer side, or an eighth of the arrays' height where that is less, so that it stays readable.
constexpr double kReadableCell = 12;
constexpr double kReadableShare = 1.0 / 8;

// Pixels of `cells` elements at `scale` pixels per element: a whole multiple from 1 up, at least
// one pixel below.
int pixels_at(std::uint32_t cells, double scale) {
    if (scale >= 1) return static_cast<int>(cells * static_cast<std::int64_t>(scale));
    return std::max(1, static_cast<int>(std::floor(cells * scale)));
}

// A side of `cells` elements drawn `pixels` long, made at least kMinArrayThickness across: whole
// pixels per element where it has fewer elements than that, else that many pixels among them.
int thick_side(std::uint32_t cells, int pixels) {
    constexpr int k = kMinArrayThickness;
    if (pixels >= k) return pixels;
    if (cells >= static_cast<std::uint32_t>(k)) return k;
    const int c = static_cast<int>(std::max<std::uint32_t>(cells, 1));
    return c * ((k + c - 1) / c);
}

// "drawn 8 px wide", "drawn 8 px tall", "drawn 8 x 9 px".
std::string thickness_note(const ArrayPlacement& p) {
    if (p.widened && p.heightened) return "drawn " + std::to_string(p.w) + " x " + std::to_string(p.h) + " px";
    return p.widened ? "drawn " + std::to_string(p.w) + " px wide" : "drawn " + std::to_string(p.h) + " px tall";
}

// An array with a note starts a line lower.
int box_height(const ArrayPlacement& p, const ArrayArea& area) { return p.h + (p.note.empty() ? 0 : area.note_height); }

// Arrays broken, in order, into groups laid one after another: each array's extent along a group
// and across it, the gap between two arrays of a group and between two groups, and the limits.
struct GroupSizes {
    std::vector<int> along, across;
    int gap_along = 0, gap_across = 0;
    int limit_along = 0, limit_across = 0;
};

// Rows: arrays left to right in a row, rows top to bottom, each after the first under its titles.
GroupSizes row_sizes(const std::vector<ArrayPlacement>& ps, const ArrayArea& area) {
    GroupSizes g{{}, {}, area.gap_x, area.title_height + area.gap_y, area.width, area.height};
    for (const ArrayPlacement& p : ps) {
        g.along.push_back(p.column_width);
        g.across.push_back(box_height(p, area));
    }
    return g;
}

// Columns: arrays top to bottom in a column, each after the first under its titles; columns left
// to right.
GroupSizes column_sizes(const std::vector<ArrayPlacement>& ps, const ArrayArea& area) {
    GroupSizes g{{}, {}, area.title_height + area.gap_y, area.gap_x, area.height, area.width};
    for (const ArrayPlacement& p : ps) {
        g.along.push_back(box_height(p, area));
        g.across.push_back(p.column_width);
    }
    return g;
}

// The first array of each group, breaking the arrays in order into groups within the limit along
// them whose extents across, with the gaps between them, add up least; none where even that
// exceeds the limit across.
std::optional<std::vector<std::size_t>> least_extent_groups(const GroupSizes& g) {
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    const std::size_t n = g.along.size();
    // least[j]: the least extent of the first j arrays; last[j]: where their last group starts.
    std::vector<std::int64_t> least(n + 1, kNone);
    std::vector<std::size_t> last(n + 1, 0);
    least[0] = 0;
    for (std::size_t j = 1; j <= n; ++j) {
        std::int64_t along = -g.gap_along;
        int across = 0;
        for (std::size_t i = j; i-- > 0;) {  // a last group of arrays i to j - 1
            along += g.along[i] + g.gap_along;
            if (along > g.limit_along) break;
            across = std::max(across, g.across[i]);
            if (least[i] == kNone) continue;
            const std::int64_t extent = least[i] + (i ? g.gap_across : 0) + across;
            if (extent < least[j]) {
                least[j] = extent;
                last[j] = i;
            }
        }
    }
    if (least[n] > g.limit_across) return std::nullopt;
    std::vector<std::size_t> starts;
    for (std::size_t j = n; j > 0; j = last[j]) starts.insert(starts.begin(), last[j]);
    return starts;
}

// The arrays of group `k`: [first, end).
std::pair<std::size_t, std::size_t> group_range(const ArrayArrangement& a, std::size_t k) {
    const std::size_t end = k + 1 < a.group_starts.size() ? a.group_starts[k + 1] : a.arrays.size();
    return {a.group_starts[k], end};
}

// Each array's place: its group's position along the flow, its own within the group; an array
// with a note a line lower.
void place_in_groups(ArrayArrangement& a, const ArrayArea& area) {
    const bool rows = a.flow == ArrayFlow::rows;
    int group_at = 0;
    for (std::size_t k = 0; k < a.group_starts.size(); ++k) {
        const auto [first, end] = group_range(a, k);
        int at = 0, extent = 0;
        for (std::size_t i = first; i < end; ++i) {
            ArrayPlacement& p = a.arrays[i];
            const int drop = p.note.empty() ? 0 : area.note_height;
            p.x = rows ? at : group_at;
            p.y = (rows ? group_at : at) + drop;
            at += rows ? p.column_width + area.gap_x : box_height(p, area) + area.title_height + area.gap_y;
            extent = std::max(extent, rows ? box_height(p, area) : p.column_width);
        }
        group_at += extent + (rows ? area.title_height + area.gap_y : area.gap_x);
    }
}

// The arrays at one common scale under one rule for small arrays: each array's least scale (0:
// none) and whether thin sides are thickened.
class Arranger {
public:
    Arranger(const std::vector<ArrayGrid>& arrays, const ArrayArea& area, double share, bool thicken)
        : arrays_(arrays), area_(area), thicken_(thicken), minimum_(arrays.size(), 0) {
        for (std::size_t i = 0; i < arrays.size(); ++i) {
            const double side = std::max(arrays[i].width, arrays[i].height);
            const double target = share * array_min_side(arrays[i], area.height);
            if (side > 0 && target >= 1) minimum_[i] = target >= side ? std::floor(target / side) : target / side;
        }
    }

    // The arrays at common scale `scale` in rows of the least height, else in columns of the least
    // width, where they fit and at least one of them keeps that scale.
    std::optional<ArrayArrangement> at(double scale) const {
        ArrayArrangement a;
        a.scale = scale;
        bool common = arrays_.empty();
        for (std::size_t i = 0; i < arrays_.size(); ++i) {
            a.arrays.push_back(place(i, scale));
            common = common || minimum_[i] <= scale;
        }
        if (!common) return std::nullopt;
        std::optional<std::vector<std::size_t>> groups = least_extent_groups(row_sizes(a.arrays, area_));
        if (!groups) {
            groups = least_extent_groups(column_sizes(a.arrays, area_));
            a.flow = ArrayFlow::columns;
        }
        if (!groups) return std::nullopt;
        a.group_starts = std::move(*groups);
        a.fits = true;
        place_in_groups(a, area_);
        return a;
    }

    // The most whole pixels per element that fit; where not even one does, the largest fraction
    // down to the smallest minimum (below it every array would be enlarged).
    std::optional<ArrayArrangement> largest() const {
        if (area_.width <= 0 || area_.height <= 0) return std::nullopt;
        std::uint32_t widest = 1, tallest = 1;
        for (const ArrayGrid& g : arrays_) {
            widest = std::max(widest, g.width);
            tallest = std::max(tallest, g.height);
        }
        for (std::int64_t s = std::min(area_.width / widest, area_.height / tallest); s >= 1; --s)
            if (std::optional<ArrayArrangement> a = at(static_cast<double>(s))) return a;
        double lo = arrays_.empty() ? 0 : *std::min_element(minimum_.begin(), minimum_.end()), hi = 1;
        if (lo >= 1) return std::nullopt;
        std::optional<ArrayArrangement> best;
        if (lo > 0 && !(best = at(lo))) return std::nullopt;
        for (int k = 0; k < 60; ++k) {
            const double mid = (lo + hi) / 2;
            if (std::optional<ArrayArrangement> a = at(mid)) {
                lo = mid;
                best = std::move(a);
            } else {
                hi = mid;
            }
        }
        return best;
    }

private:
    // Array `i` at common scale `scale`, its place in a row not yet known.
    ArrayPlacement place(std::size_t i, double scale) const {
        const ArrayGrid& g = arrays_[i];
        ArrayPlacement p;
        const bool enlarged = minimum_[i] > scale;
        p.scale = enlarged ? minimum_[i] : scale;
        p.enlarged = enlarged ? p.scale / scale : 1;
        p.w = pixels_at(g.width, p.scale);
        p.h = pixels_at(g.height, p.scale);
        if (thicken_) {
            const int w = thick_side(g.width, p.w), h = thick_side(g.height, p.h);
            p.widened = w != p.w;
            p.heightened = h != p.h;
            p.w = w;
            p.h = h;
        }
        if (enlarged) p.note = array_enlarged_note(p.enlarged);
        if (p.widened || p.heightened) p.note += (p.note.empty() ? "" : ", ") + thickness_note(p);
        const int title = i < area_.title_widths.size() ? area_.title_widths[i] : 0;
        p.column_width = std::max({p.w, title, p.note.empty() ? 0 : note_width(p.note)});
        return p;
    }

    int note_width(const std::string& note) const {
        if (!area_.note_width) return 0;
        const auto [at, added] = note_widths_.try_emplace(note, 0);
        if (added) at->second = area_.note_width(note);
        return at->second;
    }

    const std::vector<ArrayGrid>& arrays_;
    const ArrayArea& area_;
    bool thicken_;
    std::vector<double> minimum_;
    mutable std::map<std::string, int> note_widths_;  // the search measures the same few notes often
};

// Where nothing fits: every array a pixel or so across, in one row.
ArrayArrangement overflowing(const std::vector<ArrayGrid>& arrays, const ArrayArea& area) {
    ArrayArea unbounded = area;
    unbounded.width = unbounded.height = std::numeric_limits<int>::max() / 2;
    ArrayArrangement a = Arranger(arrays, unbounded, 0, false).at(0).value_or(ArrayArrangement{});
    a.fits = false;
    a.group_starts.assign(arrays.empty() ? 0 : 1, 0);
    place_in_groups(a, area);
    return a;
}

}  // namespace

double array_min_side(const ArrayGrid& g, double area_height) {
    const double side = std::max(g.width, g.height);
    return std::min(area_height * kReadableShare, kReadableCell * side);
}

std::string array_enlarged_note(double factor) {
    std::string f;
    if (factor < 9.95) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", factor);
        f = buf;
        if (f.size() > 2 && f.compare(f.size() - 2, 2, ".0") == 0) f.resize(f.size() - 2);
    } else {
        f = thousands(static_cast<std::uint64_t>(std::llround(factor)));
    }
    return "enlarged x" + f;
}

std::pair<int, int> DrawnAxis::pixels_of(std::uint64_t e) const {
    if (pixels >= cells) {
        const std::uint64_t k = pixels / cells;
        return {static_cast<int>(e * k), static_cast<int>((e + 1) * k)};
    }
    // Pixel p shows elements [p cells / pixels, (p + 1) cells / pixels): the last p whose first element is at most e.
    const int p = static_cast<int>(((e + 1) * pixels - 1) / cells);
    return {p, p + 1};
}

std::pair<std::uint32_t, std::uint32_t> DrawnAxis::elements_of(int p) const {
    const auto at = static_cast<std::uint64_t>(std::max(p, 0));
    if (pixels >= cells) {
        const std::uint64_t e = std::min(at / (pixels / cells), cells - 1);
        return {static_cast<std::uint32_t>(e), static_cast<std::uint32_t>(e + 1)};
    }
    return {static_cast<std::uint32_t>(at * cells / pixels), static_cast<std::uint32_t>((at + 1) * cells / pixels)};
}

ArrayArrangement arrange_arrays(const std::vector<ArrayGrid>& arrays, const ArrayArea& area) {
    // The full minimums where they fit, else smaller ones, else one scale for all; thin sides
    // thickened unless not even that leaves room.
    for (double share = 1; share >= 1.0 / 8; share /= 2)
        if (std::optional<ArrayArrangement> a = Arranger(arrays, area, share, true).largest()) return *a;
    for (const bool thicken : {true, false})
        if (std::optional<ArrayArrangement> a = Arranger(arrays, area, 0, thicken).largest()) return *a;
    return overflowing(arrays, area);
}

}  // namespace cachesim::viz
