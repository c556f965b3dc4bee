#include "apps/cacheviz/app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "apps/cacheviz/config.hpp"
#include "apps/cachesim/presets.hpp"
#include "traces/input_error.hpp"
#include "traces/schedule.hpp"
#include "viz/render.hpp"
#include "viz/analytic.hpp"
#include "viz/notes.hpp"

namespace cachesim::gui {

namespace {

ImU32 to_imgui(viz::Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }

const char* kPolicies[] = {"lru", "fifo", "random", "random4", "plru", "opt"};
const char* kSchedules[] = {"linear", "column", "zigzag", "tiled", "morton"};

bool edit_u32(const char* label, std::uint32_t& v, std::uint32_t lo = 1) {
    std::uint32_t x = v;
    if (ImGui::InputScalar(label, ImGuiDataType_U32, &x, nullptr, nullptr, "%u", ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit())) {
        x = std::max(x, lo);
        if (x != v) { v = x; return true; }
    }
    return false;
}

bool edit_u64(const char* label, std::uint64_t& v) {
    std::uint64_t x = v;
    if (ImGui::InputScalar(label, ImGuiDataType_U64, &x, nullptr, nullptr, "%llu", ImGuiInputTextFlags_EnterReturnsTrue) ||
        ImGui::IsItemDeactivatedAfterEdit()) {
        if (x != v) { v = x; return true; }
    }
    return false;
}

bool level_controls(CacheConfig& c) {
    bool changed = false;
    ImGui::PushID(c.name.c_str());
    bool enabled = c.enabled();
    if (ImGui::Checkbox(("enable " + c.name).c_str(), &enabled)) {
        c.size_bytes = enabled ? std::uint64_t{16} * 1024 : 0;
        changed = true;
    }
    if (c.enabled()) {
        changed |= edit_u64("size (bytes)", c.size_bytes);
        std::uint64_t lines = c.size_bytes / std::max<std::uint32_t>(c.line_bytes, 1);
        if (edit_u64("lines", lines)) { c.size_bytes = lines * c.line_bytes; changed = true; }
        changed |= edit_u32("line (bytes)", c.line_bytes);
        changed |= edit_u32("sector (0 = line)", c.sector_bytes, 0);
        changed |= edit_u32("ways (0 = full)", c.ways, 0);
        int policy = static_cast<int>(c.policy);
        std::string current(policy_name(c.policy));
        if (ImGui::BeginCombo("policy", current.c_str())) {
            for (const char* p : kPolicies)
                if (ImGui::Selectable(p, current == p)) {
                    if (auto k = parse_policy(p)) { c.policy = *k; changed = true; }
                }
            ImGui::EndCombo();
        }
        (void)policy;
        int write = c.write_policy == WritePolicy::write_back_allocate ? 1 : 0;
        if (ImGui::Combo("stores", &write, "write-through, no allocate\0write-back, allocate\0")) {
            c.write_policy = write ? WritePolicy::write_back_allocate : WritePolicy::write_through_no_allocate;
            changed = true;
        }
    }
    ImGui::PopID();
    return changed;
}

std::string schedule_label(const Schedule& s) { return schedule_name(s); }

}  // namespace

GpuConfig PaneConfig::default_gpu() {
    const GpuPreset* p = find_gpu_preset(kDefaultGpuPreset);
    return p ? p->config : GpuConfig{};
}

App::App(PaneConfig first, std::optional<PaneConfig> compare, AppOptions options) : options_(std::move(options)) {
    for (int i = 0; i < 2; ++i) {
        auto p = std::make_unique<Pane>();
        p->name = i == 0 ? "A" : "B";
        p->config = i == 0 ? first : compare.value_or(first);
        panes_.push_back(std::move(p));
    }
    compare_ = compare.has_value();
    start_run(*panes_[0]);
    if (compare_) start_run(*panes_[1]);
}

App::~App() = default;

bool App::busy() const {
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) {
        const Pane& p = *panes_[i];
        // A job counts until its result is shown (a finished one is picked up by the next frame).
        if (p.job || p.snapshot_job || p.detail_job) return true;
    }
    return false;
}

std::size_t App::texels_written_last_frame() const {
    std::size_t n = 0;
    for (const auto& p : panes_) n += p->texels_written_last_frame;
    return n;
}

void App::start_run(Pane& pane) {
    pane.config_error.clear();
    try {
        validate(pane.config.workload);
        if (pane.config.model == "gpu") validate(pane.config.gpu);
        else validate(pane.config.hierarchy);
    } catch (const std::exception& e) {
        pane.config_error = e.what();
        return;
    }
    // A newer change cancels the older run; it finishes (promptly) in the background.
    pane.retire(pane.job);
    JobInput in;
    in.workload = pane.config.workload;
    in.hierarchy = pane.config.hierarchy;
    in.gpu_model = pane.config.model == "gpu";
    in.gpu = pane.config.gpu;
    in.gpu.timeline = nullptr;
    if (in.gpu_model && pane.config.use_timeline && pane.config.timeline) {
        in.timeline = pane.config.timeline;
        in.gpu.timeline = in.timeline.get();
    }
    in.recorder.max_cells = options_.max_cells;
    pane.job = std::make_unique<SimJob>(std::move(in));
    pane.array_view_step = ~std::uint64_t{0};
    drop_detail(pane);  // it shows the old configuration
}

void App::drop_detail(Pane& pane) {
    pane.retire(pane.detail_job);
    pane.detail.reset();
    pane.detail_texture.set_diagram(nullptr);
    pane.detail_declined.reset();
}

void App::update_detail(Pane& pane, const viz::ViewExtent& view) {
    const viz::Diagram* d = pane.current ? pane.current->diagram.get() : nullptr;
    if (!d || pane.job || !viz::needs_detail(*d, view)) {
        drop_detail(pane);
        return;
    }
    const std::uint64_t steps = d->first_step() + d->steps(), rows = d->rows();
    if (pane.detail && !viz::overlaps(pane.detail_window, view, steps, rows)) {
        pane.detail.reset();  // out of view: free it
        pane.detail_texture.set_diagram(nullptr);
    }
    if (pane.detail && viz::covers(pane.detail_window, view, steps, rows)) {
        pane.retire(pane.detail_job);  // the view came back into the window shown
        return;
    }
    if (pane.detail_job && viz::covers(pane.detail_job_window, view, steps, rows)) return;  // on its way
    if (pane.detail_declined && viz::covers(*pane.detail_declined, view, steps, rows)) return;
    const std::optional<viz::DetailWindow> w = viz::choose_detail_window(view, steps, rows, options_.detail);
    pane.retire(pane.detail_job);  // a newer window replaces the older request
    if (!w) return;  // over the budget: the coarse cells stay
    JobInput in = pane.current->input;
    in.recorder = viz::detail_recorder_options(*w);
    in.stop_after_window = true;
    in.run_fraction = static_cast<double>(w->step_end()) / static_cast<double>(std::max<std::uint64_t>(steps, 1));
    pane.detail_job = std::make_unique<SimJob>(std::move(in));
    pane.detail_job_window = *w;
}

void App::poll(Pane& pane) {
    std::erase_if(pane.retiring, [](const std::unique_ptr<SimJob>& j) { return j->done(); });
    if (pane.job && pane.job->done()) {
        std::shared_ptr<JobOutput> out = pane.job->output();
        pane.job.reset();
        if (out && out->error.empty()) {
            const bool extent_changed = !pane.current || !pane.current->diagram ||
                                        pane.current->diagram->steps() != out->diagram->steps() ||
                                        pane.current->diagram->rows() != out->diagram->rows();
            pane.current = out;
            pane.texture.set_diagram(out->diagram);
            drop_detail(pane);
            if (extent_changed && (view_.fitted || &pane == panes_[0].get())) fit_view();
            view_.playhead = std::min<std::uint64_t>(view_.playhead, total_steps() ? total_steps() - 1 : 0);
            pane.array_view_step = ~std::uint64_t{0};
        } else if (out) {
            pane.config_error = out->error;
        }
    }
    if (pane.detail_job && pane.detail_job->done()) {
        std::shared_ptr<JobOutput> out = pane.detail_job->output();
        const viz::DetailWindow requested = pane.detail_job_window;
        pane.detail_job.reset();
        if (out && out->error.empty() && out->diagram) {
            pane.detail = out;
            pane.detail_window = requested;  // what the diagram covers, and what update_detail compares with
            pane.detail_texture.set_diagram(out->diagram);
        } else if (out) {
            pane.detail_declined = requested;  // do not retry a failing window
        }
    }
    if (pane.snapshot_job && pane.snapshot_job->done()) {
        std::shared_ptr<JobOutput> out = pane.snapshot_job->output();
        pane.snapshot_job.reset();
        if (out && out->error.empty() && out->snapshot && out->diagram) {
            std::optional<WorkloadSpec> items;  // steps are work items only in the thread model
            if (!out->input.gpu_model) items = out->input.workload;
            pane.array_view = viz::make_array_view(out->diagram->layout(), *out->snapshot, items);
            pane.array_textures.clear();
            for (const viz::ArrayGrid& g : pane.array_view->arrays) {
                sf::Texture t;
                t.create(g.width, g.height);
                std::vector<std::uint8_t> px(static_cast<std::size_t>(g.width) * g.height * 4);
                for (std::size_t i = 0; i < g.cells.size(); ++i) {
                    const viz::Rgba c = viz::cell_color(g.cells[i]);
                    px[i * 4] = c.r; px[i * 4 + 1] = c.g; px[i * 4 + 2] = c.b; px[i * 4 + 3] = 255;
                }
                t.update(px.data());
                t.setSmooth(false);
                pane.array_textures.push_back(std::move(t));
            }
        }
    }
}

void App::request_array_view(Pane& pane) {
    if (!pane.current || pane.array_view_step == view_.playhead) return;
    if (pane.snapshot_job && !pane.snapshot_job->done()) {
        if (pane.snapshot_job->input().recorder.first_step == view_.playhead) return;
        pane.retire(pane.snapshot_job);
    }
    const WorkloadSpec& w = pane.current->input.workload;
    if (view_.playhead >= pane.current->diagram->steps()) return;
    // Arrays up to 2048 x 2048 elements get one texel each; larger ones are not drawn.
    for (const ArrayInfo& a : w.arrays())
        if (a.width > 2048 || a.height > 2048) return;
    JobInput in = pane.current->input;
    in.recorder = {};
    in.recorder.first_step = view_.playhead;
    in.recorder.window_steps = 1;
    in.recorder.snapshot_step = view_.playhead;
    in.stop_after_window = true;  // the steps after the playhead cannot change its snapshot
    in.run_fraction = static_cast<double>(view_.playhead + 1) / static_cast<double>(std::max<std::uint64_t>(pane.current->diagram->steps(), 1));
    pane.snapshot_job = std::make_unique<SimJob>(std::move(in));
    pane.array_view_step = view_.playhead;
}

std::uint64_t App::total_steps() const {
    std::uint64_t n = 0;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i)
        if (panes_[i]->current && panes_[i]->current->diagram) n = std::max(n, panes_[i]->current->diagram->steps());
    return n;
}

std::uint64_t App::total_rows() const {
    std::uint64_t n = 0;
    for (int i = 0; i < (compare_ ? 2 : 1); ++i)
        if (panes_[i]->current && panes_[i]->current->diagram) n = std::max(n, panes_[i]->current->diagram->rows());
    return n;
}

void App::fit_view() {
    view_.t0 = 0;
    view_.t1 = static_cast<double>(std::max<std::uint64_t>(total_steps(), 1));
    view_.r0 = 0;
    view_.r1 = static_cast<double>(std::max<std::uint64_t>(total_rows(), 1));
    view_.fitted = true;
    // The initial zoom (--zoom) holds until the user moves the view.
    if (options_.zoom_steps || options_.zoom_lines) {
        if (options_.zoom_steps) std::tie(view_.t0, view_.t1) = *options_.zoom_steps;
        if (options_.zoom_lines) std::tie(view_.r0, view_.r1) = *options_.zoom_lines;
        clamp_view();
        view_.fitted = false;
    }
}

void App::user_moved_view() {
    view_.fitted = false;
    options_.zoom_steps.reset();
    options_.zoom_lines.reset();
}

void App::clamp_view() {
    const double ts = static_cast<double>(std::max<std::uint64_t>(total_steps(), 1));
    const double rs = static_cast<double>(std::max<std::uint64_t>(total_rows(), 1));
    auto clamp_axis = [](double& a, double& b, double total, double min_span) {
        double span = std::clamp(b - a, std::min(min_span, total), total);
        a = std::clamp(a, 0.0, total - span);
        b = a + span;
    };
    clamp_axis(view_.t0, view_.t1, ts, 4.0);
    clamp_axis(view_.r0, view_.r1, rs, 4.0);
}

void App::auto_motion(int frame) {
    if (total_steps() == 0) return;
    // Zoom in for 60 frames, pan right for 120, zoom out for 60: exercises level changes and
    // the incremental (panning) texture updates.
    const int phase = frame % 240;
    const double span = view_.t1 - view_.t0;
    if (phase < 60) {
        const double c = (view_.t0 + view_.t1) / 2;
        view_.t0 = c - span * 0.47;
        view_.t1 = c + span * 0.47;
    } else if (phase < 180) {
        view_.t0 += span * 0.01;
        view_.t1 += span * 0.01;
    } else {
        const double c = (view_.t0 + view_.t1) / 2;
        view_.t0 = c - span * 0.53;
        view_.t1 = c + span * 0.53;
    }
    view_.fitted = false;
    clamp_view();
}

void App::controls(Pane& pane) {
    PaneConfig& c = pane.config;
    bool changed = false;
    // Presets.
    if (ImGui::BeginCombo("preset", "apply a preset...")) {
        for (const cli::Preset& p : cli::presets())
            if (ImGui::Selectable(p.name.c_str())) {
                try {
                    c = config_from_args({"--preset", p.name});
                    changed = true;
                } catch (const std::exception& e) {
                    pane.config_error = e.what();
                }
            }
        ImGui::EndCombo();
    }
    ImGui::Separator();
    ImGui::TextDisabled("Workload");
    int kind = c.workload.kind == WorkloadKind::stencil ? 0 : 1;
    if (ImGui::Combo("workload", &kind, "stencil\0matmul\0")) {
        c.workload.kind = kind == 0 ? WorkloadKind::stencil : WorkloadKind::matmul;
        changed = true;
    }
    changed |= edit_u32("width I_w", c.workload.width);
    changed |= edit_u32("height I_h", c.workload.height);
    if (c.workload.kind == WorkloadKind::stencil) {
        changed |= edit_u32("stencil S_w", c.workload.stencil_w);
        changed |= edit_u32("stencil S_h", c.workload.stencil_h);
    } else {
        changed |= edit_u32("depth D", c.workload.depth);
    }
    changed |= edit_u32("element bytes", c.workload.elem_bytes);
    int sk = static_cast<int>(c.workload.schedule.kind);
    if (ImGui::Combo("schedule", &sk, "linear\0column\0zigzag\0tiled\0morton\0")) {
        c.workload.schedule.kind = static_cast<ScheduleKind>(sk);
        if (c.workload.schedule.width == 0) c.workload.schedule.width = 4;
        if (c.workload.schedule.kind == ScheduleKind::tiled && c.workload.schedule.tile_height == 0)
            c.workload.schedule.tile_height = c.workload.schedule.width;
        changed = true;
    }
    const ScheduleKind k = c.workload.schedule.kind;
    if (k == ScheduleKind::column || k == ScheduleKind::zigzag || k == ScheduleKind::tiled)
        changed |= edit_u32(k == ScheduleKind::tiled ? "tile width" : "column width W", c.workload.schedule.width);
    if (k == ScheduleKind::tiled) changed |= edit_u32("tile height", c.workload.schedule.tile_height);
    (void)kSchedules;

    ImGui::Separator();
    ImGui::TextDisabled("Model");
    int model = c.model == "thread" ? 0 : 1;
    if (ImGui::Combo("model", &model, "thread (work items in order)\0GPU (SMs, warps)\0")) {
        c.model = model == 0 ? "thread" : "gpu";
        changed = true;
    }
    if (c.model == "gpu") {
        if (ImGui::BeginCombo("GPU preset", c.gpu.name.c_str())) {
            for (const GpuPreset& p : gpu_presets())
                if (ImGui::Selectable(p.name.c_str(), p.name == c.gpu.name)) { c.gpu = p.config; changed = true; }
            ImGui::EndCombo();
        }
        changed |= edit_u32("block size", c.gpu.block);
        std::uint32_t sms = c.gpu.sms;
        if (edit_u32("SMs", sms)) {
            c.gpu = with_sms(c.gpu, sms);  // a measured floorplan holds for its own SM count only
            changed = true;
        }
        int cta = static_cast<int>(c.gpu.cta_order);
        if (ImGui::Combo("block order", &cta, "round robin\0fill\0measured (floorplan)\0")) {
            c.gpu.cta_order = static_cast<CtaOrder>(cta);
            changed = true;
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("measured: the chip's own first-wave order (presets that measured it: h200)");
        int refill = static_cast<int>(c.gpu.cta_refill);
        if (ImGui::Combo("later waves", &refill, "shuffled\0SM order\0")) { c.gpu.cta_refill = static_cast<CtaRefill>(refill); changed = true; }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("SMs freeing a block slot in the same round get the next blocks\nin a seeded random order (shuffled) or in SM order");
        int sched = static_cast<int>(c.gpu.scheduler);
        if (ImGui::Combo("warp scheduler", &sched, "lrr\0gto\0")) { c.gpu.scheduler = static_cast<WarpScheduler>(sched); changed = true; }
        if (c.gpu.scheduler == WarpScheduler::lrr) {
            float spread = static_cast<float>(c.gpu.warp_rate_spread);
            if (ImGui::SliderFloat("warp rate spread", &spread, 0.0f, 0.5f, "%.3f")) {
                c.gpu.warp_rate_spread = spread;
                changed = true;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("each warp issues at its own log-normal rate with this spread, so blocks that share\n"
                                  "data drift apart (h200: 0.05, fitted to its naive matmul); 0: lock step");
            int burst = static_cast<int>(c.gpu.issue_burst);
            if (ImGui::InputInt("requests per turn", &burst)) {
                c.gpu.issue_burst = static_cast<std::uint32_t>(std::clamp(burst, 0, 4096));
                changed = true;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("a warp issues this many requests in a row at its turn; 0: auto, the loads of one\n"
                                  "iteration of the compiled loop (stencil SWxSH, matmul 32; h200); 1: one per turn");
            int skip = static_cast<int>(c.gpu.block_start_skip);
            if (ImGui::SliderInt("block start skip", &skip, 0, 8)) {
                c.gpu.block_start_skip = static_cast<std::uint32_t>(std::clamp(skip, 0, 1024));
                changed = true;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("a block's warps are passed over on their first 0..N turns (drawn per block), so that\n"
                                  "blocks started together do not run in exact step (h200: 1)");
        }
        if (c.timeline) {
            changed |= ImGui::Checkbox("measured warp order", &c.use_timeline);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("replay in the order the GPU ran it (%s, launch %u) instead of lockstep rounds;\n"
                                  "it fits only the launch it was recorded for",
                                  c.timeline->source.c_str(), c.timeline->launch);
        }
        ImGui::TextDisabled(c.timeline && c.use_timeline ? "a step is one request, in the measured order"
                                                         : "a step is one scheduling round");
    }

    ImGui::Separator();
    ImGui::TextDisabled("Caches");
    if (c.model == "gpu") {
        changed |= ImGui::Checkbox("L1 size from the carve-out", &c.gpu.l1_auto);
        if (c.gpu.l1_auto) {
            try {
                ImGui::TextDisabled("L1 per SM: %s B", viz::thousands(effective_l1(c.gpu).size_bytes).c_str());
            } catch (const std::exception& e) {
                ImGui::TextDisabled("%s", e.what());
            }
        }
        changed |= level_controls(c.gpu.l1);
        ImGui::Spacing();
        changed |= level_controls(c.gpu.l2);
        changed |= edit_u32("L2 partitions", c.gpu.l2_partitions);
    } else {
        changed |= level_controls(c.hierarchy.l1);
        ImGui::Spacing();
        changed |= level_controls(c.hierarchy.l2);
    }
    std::uint64_t seed = c.hierarchy.seed;
    if (edit_u64("seed", seed)) { c.hierarchy.seed = seed; changed = true; }
    if (changed) start_run(pane);
    if (!pane.config_error.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(0.85f, 0.1f, 0.1f, 1), "%s", pane.config_error.c_str());
        ImGui::PopTextWrapPos();
    }
}

void App::playhead_controls() {
    const std::uint64_t steps = total_steps();
    if (ImGui::Button(view_.playing ? "Pause" : "Play")) view_.playing = !view_.playing;
    ImGui::SameLine();
    if (ImGui::Button("<") && view_.playhead > 0) --view_.playhead;
    ImGui::SameLine();
    if (ImGui::Button(">") && view_.playhead + 1 < steps) ++view_.playhead;
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::SliderFloat("steps/s", &view_.speed, 1.0f, 2000.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    std::uint64_t lo = 0, hi = steps ? steps - 1 : 0;
    ImGui::SetNextItemWidth(-1);
    ImGui::SliderScalar("##playhead", ImGuiDataType_U64, &view_.playhead, &lo, &hi, "step %llu");
}

// The header's second line: the run's progress, the deep zoom's, or what the cells show.
void App::detail_status(Pane& pane, float width) {
    if (pane.job) {
        ImGui::ProgressBar(static_cast<float>(pane.job->progress()), ImVec2(width - 110, 0), "simulating...");
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) pane.retire(pane.job);
        return;
    }
    const auto u = [](std::uint64_t v) { return viz::thousands(v); };
    if (pane.detail_job) {
        const viz::DetailWindow& w = pane.detail_job_window;
        const std::string label = "zooming in: re-simulating steps " + u(w.first_step) + "-" + u(w.step_end() - 1) + ", lines " +
                                  u(w.first_row) + "-" + u(w.row_end() - 1) + " at full resolution";
        ImGui::ProgressBar(static_cast<float>(pane.detail_job->progress()), ImVec2(width - 110, 0), label.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Cancel##detail")) {
            pane.detail_declined = w;
            pane.retire(pane.detail_job);
        }
        return;
    }
    ImGui::AlignTextToFramePadding();
    const viz::Diagram* d = pane.current ? pane.current->diagram.get() : nullptr;
    if (pane.detail) {
        const viz::DetailWindow& w = pane.detail_window;
        ImGui::TextDisabled("one step x one line per cell in steps %s-%s, lines %s-%s", u(w.first_step).c_str(),
                            u(w.step_end() - 1).c_str(), u(w.first_row).c_str(), u(w.row_end() - 1).c_str());
    } else if (d && !d->exact()) {
        ImGui::TextDisabled("a cell covers %s steps x %s lines; zoom in for single steps and lines", u(d->steps_per_column()).c_str(),
                            u(d->rows_per_bucket()).c_str());
    } else {
        ImGui::TextUnformatted("");
    }
}

void App::diagram_pane(Pane& pane, float width, float height) {
    ImGui::BeginChild(("pane" + pane.name).c_str(), ImVec2(width, height), true, ImGuiWindowFlags_NoScrollbar);
    // Header: configuration, hit rates, progress.
    ImGui::Text("%s: %s%s", pane.name.c_str(), pane.config.workload.describe().c_str(),
                pane.config.model == "gpu" ? (", GPU " + pane.config.gpu.name + ", block " + std::to_string(pane.config.gpu.block)).c_str() : "");
    if (pane.current && !pane.current->result.levels.empty()) {
        std::string rates;
        for (const LevelStats& s : pane.current->result.levels) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%s%s hit rate %.2f%%", rates.empty() ? "" : ", ", s.name.c_str(), 100.0 * s.hit_rate());
            rates += buf;
        }
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.1f, 0.45f, 0.1f, 1), "  %s", rates.c_str());
    }
    detail_status(pane, width);
    const float label_w = 64, axis_h = 22;
    ImVec2 origin = ImGui::GetCursorScreenPos();
    const float w = std::max(10.0f, ImGui::GetContentRegionAvail().x - label_w);
    const float h = std::max(10.0f, ImGui::GetContentRegionAvail().y - axis_h);
    const ImVec2 p0(origin.x + label_w, origin.y);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    viz::gui::Viewport vp{view_.t0, view_.t1, view_.r0, view_.r1, static_cast<int>(w), static_cast<int>(h)};
    update_detail(pane, viz::ViewExtent{view_.t0, view_.t1, view_.r0, view_.r1, vp.width, vp.height});
    dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), IM_COL32(255, 255, 255, 255));
    pane.texels_written_last_frame = 0;
    const viz::Diagram* d = pane.current ? pane.current->diagram.get() : nullptr;
    const viz::Diagram* exact = pane.detail ? pane.detail->diagram.get() : nullptr;
    {
        Placement& at = placements_[&pane == panes_[0].get() ? 0 : 1];
        at = {p0.x, p0.y, w, h, view_.t0, view_.t1, view_.r0, view_.r1, 0, 0, std::nullopt};
        if (d) at.steps_per_column = d->steps_per_column(), at.rows_per_bucket = d->rows_per_bucket();
        if (exact) at.detail = pane.detail_window;
    }
    if (d) {
        pane.texels_written_last_frame = pane.texture.update(vp);
        dl->PushClipRect(p0, ImVec2(p0.x + w, p0.y + h), true);
        pane.texture.draw(dl, p0.x, p0.y, vp);
        if (exact) {  // the full-resolution window over the coarse cells
            pane.texels_written_last_frame += pane.detail_texture.update(vp);
            pane.detail_texture.draw(dl, p0.x, p0.y, vp);
        }
        // Array group separators.
        for (const viz::RowGroup& g : d->layout().groups()) {
            if (g.first_row == 0) continue;
            const float y = std::floor(p0.y + static_cast<float>((g.first_row - view_.r0) * h / (view_.r1 - view_.r0))) + 0.5f;
            dl->AddLine(ImVec2(p0.x, y), ImVec2(p0.x + w, y), IM_COL32(90, 90, 90, 255), 1.0f);
        }
        // Playhead.
        const float px = p0.x + static_cast<float>((view_.playhead + 0.5 - view_.t0) * w / (view_.t1 - view_.t0));
        dl->AddLine(ImVec2(px, p0.y), ImVec2(px, p0.y + h), IM_COL32(0, 170, 60, 255), 2.0f);
        dl->PopClipRect();
        // Array names in the left margin.
        dl->PushClipRect(origin, ImVec2(p0.x, p0.y + h), true);
        for (const viz::RowGroup& g : d->layout().groups()) {
            const double mid = std::clamp((g.first_row + g.lines / 2.0), view_.r0, view_.r1);
            const float y = p0.y + static_cast<float>((mid - view_.r0) * h / (view_.r1 - view_.r0));
            dl->AddText(ImVec2(origin.x + 4, y - 7), IM_COL32(20, 20, 20, 255), g.array.name.c_str());
        }
        dl->PopClipRect();
        // Time axis ticks.
        const std::uint64_t span = static_cast<std::uint64_t>(std::max(1.0, view_.t1 - view_.t0));
        const std::uint64_t tick = viz::nice_tick(span, std::max(2, static_cast<int>(w / 100)));
        for (std::uint64_t t = static_cast<std::uint64_t>(std::ceil(view_.t0 / tick)) * tick; t <= view_.t1; t += tick) {
            const float x = p0.x + static_cast<float>((t - view_.t0) * w / (view_.t1 - view_.t0));
            dl->AddLine(ImVec2(x, p0.y + h), ImVec2(x, p0.y + h + 4), IM_COL32(60, 60, 60, 255));
            dl->AddText(ImVec2(x - 10, p0.y + h + 5), IM_COL32(60, 60, 60, 255), viz::thousands(t).c_str());
        }
    } else {
        dl->AddText(ImVec2(p0.x + 10, p0.y + 10), IM_COL32(80, 80, 80, 255),
                    pane.config_error.empty() ? "simulating..." : "configuration error (see the panel)");
    }
    dl->AddRect(ImVec2(p0.x - 1, p0.y - 1), ImVec2(p0.x + w + 1, p0.y + h + 1), IM_COL32(60, 60, 60, 255));  // outside the cells

    // Interaction: drag pans, wheel zooms (Ctrl: time only, Shift: lines only), right click or
    // double click moves the playhead, hovering shows a tooltip.
    ImGui::SetCursorScreenPos(p0);
    ImGui::InvisibleButton("diagram", ImVec2(w, h), ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    ImGuiIO& io = ImGui::GetIO();
    const double spx = (view_.t1 - view_.t0) / w, rpx = (view_.r1 - view_.r0) / h;
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
        view_.t0 -= io.MouseDelta.x * spx;
        view_.t1 -= io.MouseDelta.x * spx;
        view_.r0 -= io.MouseDelta.y * rpx;
        view_.r1 -= io.MouseDelta.y * rpx;
        user_moved_view();
        clamp_view();
    }
    if (ImGui::IsItemHovered() && d) {
        const double mt = view_.t0 + (io.MousePos.x - p0.x) * spx;
        const double mr = view_.r0 + (io.MousePos.y - p0.y) * rpx;
        if (io.MouseWheel != 0) {
            const double f = std::pow(0.85, io.MouseWheel);
            const bool time_axis = !io.KeyShift, row_axis = !io.KeyCtrl;
            if (time_axis) { view_.t0 = mt - (mt - view_.t0) * f; view_.t1 = mt + (view_.t1 - mt) * f; }
            if (row_axis) { view_.r0 = mr - (mr - view_.r0) * f; view_.r1 = mr + (view_.r1 - mr) * f; }
            user_moved_view();
            clamp_view();
        }
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
            view_.playhead = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(0.0, mt)), d->steps() ? d->steps() - 1 : 0);
        const std::uint64_t step = static_cast<std::uint64_t>(std::max(0.0, mt));
        const std::uint64_t row = static_cast<std::uint64_t>(std::max(0.0, mr));
        if (step < d->first_step() + d->steps() && row < d->rows()) {
            ImGui::BeginTooltip();
            const WorkloadSpec& wl = pane.current->input.workload;
            if (pane.current->input.gpu_model && pane.current->input.gpu.timeline) {
                ImGui::Text("request %s of %s (in the measured order)", viz::thousands(step).c_str(),
                            viz::thousands(pane.current->rounds).c_str());
            } else if (pane.current->input.gpu_model) {
                ImGui::Text("round %s of %s (every SM with work issues one request)", viz::thousands(step).c_str(),
                            viz::thousands(pane.current->rounds).c_str());
            } else {
                const std::uint64_t item = schedule_map(wl.schedule, step, wl.width, wl.height);
                ImGui::Text("step %s: work item %s at (%llu, %llu)", viz::thousands(step).c_str(), viz::thousands(item).c_str(),
                            static_cast<unsigned long long>(item % wl.width), static_cast<unsigned long long>(item / wl.width));
            }
            const viz::RowInfo info = d->layout().describe(row);
            if (info.group)
                ImGui::Text("line %s: %s elements (%u, %u) .. +%llu", viz::thousands(info.line).c_str(),
                            info.group->array.name.c_str(), info.x, info.y,
                            static_cast<unsigned long long>(info.elements ? info.elements - 1 : 0));
            // The exact cell where the full-resolution window is drawn, the base cell elsewhere.
            const viz::ShownCell cell = viz::shown_cell(*d, exact, step, row);
            ImGui::ColorButton("##state", ImGui::ColorConvertU32ToFloat4(to_imgui(viz::cell_color(cell.state))), 0, ImVec2(12, 12));
            ImGui::SameLine();
            ImGui::Text("%s", std::string(viz::cell_state_name(cell.state)).c_str());
            if (cell.exact && !d->exact())
                ImGui::TextDisabled("(exact: this step and line, re-simulated at full resolution)");
            else if (!cell.exact)
                ImGui::TextDisabled("(a cell covers %llu steps x %llu lines)", static_cast<unsigned long long>(d->steps_per_column()),
                                    static_cast<unsigned long long>(d->rows_per_bucket()));
            ImGui::EndTooltip();
        }
    }
    ImGui::EndChild();
}

void App::array_panel(float width, float height) {
    ImGui::BeginChild("arrays", ImVec2(width, height), true);
    playhead_controls();
    const int n = compare_ ? 2 : 1;
    const float pane_w = (ImGui::GetContentRegionAvail().x - 8 * (n - 1)) / n;
    for (int i = 0; i < n; ++i) {
        Pane& pane = *panes_[i];
        if (i) ImGui::SameLine();
        ImGui::BeginGroup();
        if (pane.array_view) {
            const viz::ArrayView& av = *pane.array_view;
            if (av.work_item)
                ImGui::Text("%s: step %s, work item (%u, %u)", pane.name.c_str(), viz::thousands(av.step).c_str(), av.item_x, av.item_y);
            else if (pane.current && pane.current->input.gpu.timeline)
                ImGui::Text("%s: request %s of the measured order (where each line is after it)", pane.name.c_str(),
                            viz::thousands(av.step).c_str());
            else
                ImGui::Text("%s: round %s (where each line is after the round)", pane.name.c_str(), viz::thousands(av.step).c_str());
            float total_w = 0, max_h = 1;
            for (const viz::ArrayGrid& g : av.arrays) { total_w += g.width; max_h = std::max(max_h, static_cast<float>(g.height)); }
            const float avail_h = ImGui::GetContentRegionAvail().y - 22;
            const float scale = std::max(0.1f, std::min((pane_w - 10.0f * av.arrays.size()) / std::max(1.0f, total_w), avail_h / max_h));
            for (std::size_t a = 0; a < av.arrays.size() && a < pane.array_textures.size(); ++a) {
                if (a) ImGui::SameLine();
                ImGui::BeginGroup();
                ImGui::TextUnformatted(av.arrays[a].name.c_str());
                const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(pane.array_textures[a].getNativeHandle()));
                ImGui::Image(id, ImVec2(av.arrays[a].width * scale, av.arrays[a].height * scale), ImVec2(0, 0), ImVec2(1, 1),
                             ImVec4(1, 1, 1, 1), ImVec4(0.3f, 0.3f, 0.3f, 1));
                ImGui::EndGroup();
            }
        } else {
            ImGui::TextDisabled("%s: array view at the playhead: computing...", pane.name.c_str());
        }
        ImGui::EndGroup();
    }
    ImGui::EndChild();
}

void App::stats_panel(float width, float height) {
    ImGui::BeginChild("stats", ImVec2(width, height), true);
    const int n = compare_ ? 2 : 1;
    // Legend.
    for (viz::CellState s : viz::kLegendOrder) {
        ImGui::ColorButton(std::string(viz::cell_state_name(s)).c_str(), ImGui::ColorConvertU32ToFloat4(to_imgui(viz::cell_color(s))),
                           ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::Text("%s", std::string(viz::cell_state_name(s)).c_str());
        if (s != viz::CellState::fetched_from_l2 && s != viz::CellState::not_cached) ImGui::SameLine(0, 14);
    }
    if (ImGui::BeginTable("counters", 1 + n, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY)) {
        ImGui::TableSetupColumn("");
        for (int i = 0; i < n; ++i) ImGui::TableSetupColumn(panes_[i]->name.c_str());
        ImGui::TableHeadersRow();
        auto row = [&](const char* label, auto value_of) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(label);
            for (int i = 0; i < n; ++i) {
                ImGui::TableSetColumnIndex(1 + i);
                const auto& cur = panes_[i]->current;
                if (cur) ImGui::TextUnformatted(value_of(*cur).c_str());
            }
        };
        row("schedule", [](const JobOutput& o) { return schedule_label(o.input.workload.schedule); });
        row("model", [](const JobOutput& o) {
            if (!o.input.gpu_model) return std::string("thread");
            return "GPU " + o.input.gpu.name + " (" + viz::thousands(o.rounds) +
                   (o.input.gpu.timeline ? " requests, measured order)" : " rounds)");
        });
        for (std::size_t lvl = 0; lvl < 2; ++lvl) {
            auto level = [lvl](const JobOutput& o) -> const LevelStats* {
                return lvl < o.result.levels.size() ? &o.result.levels[lvl] : nullptr;
            };
            auto num = [&](auto f) {
                return [level, f](const JobOutput& o) { const LevelStats* s = level(o); return s ? viz::thousands(f(*s)) : std::string("-"); };
            };
            const std::string p = lvl == 0 ? "first level " : "second level ";
            row((p + "name").c_str(), [level](const JobOutput& o) { const LevelStats* s = level(o); return s ? s->name : std::string("-"); });
            row("  accesses", num([](const LevelStats& s) { return s.accesses(); }));
            row("  hits", num([](const LevelStats& s) { return s.hits(); }));
            row("  misses", num([](const LevelStats& s) { return s.misses(); }));
            row("  hit rate", [level](const JobOutput& o) {
                const LevelStats* s = level(o);
                char b[32];
                std::snprintf(b, sizeof b, "%.2f%%", s ? 100.0 * s->hit_rate() : 0.0);
                return s ? std::string(b) : std::string("-");
            });
            row("  compulsory", num([](const LevelStats& s) { return s.compulsory; }));
            row("  capacity", num([](const LevelStats& s) { return s.capacity; }));
            row("  conflict", num([](const LevelStats& s) { return s.conflict; }));
            row("  evictions", num([](const LevelStats& s) { return s.evictions; }));
        }
        row("fetches (first level read misses)", [](const JobOutput& o) {
            return o.result.levels.empty() ? std::string("-") : viz::thousands(o.result.levels[0].read_misses);
        });
        row("thesis fetch figure", [](const JobOutput& o) {
            const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
            const auto a = viz::analytic::summarize(o.input.workload, c);
            if (!a.fetch_bound) return std::string("(none for this schedule)");
            const std::uint64_t lines = c.size_bytes / std::max<std::uint32_t>(c.line_bytes, 1);
            const bool sets = c.ways != 0 && c.ways < lines;  // the thesis assumes full associativity
            return std::string(a.fetch_is_estimate ? "~ " : "<= ") + viz::thousands(static_cast<std::uint64_t>(*a.fetch_bound)) +
                   " (" + a.fetch_equation + (sets ? ", fully assoc." : "") + ")";
        });
        row("recommended column width", [](const JobOutput& o) {
            const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
            const auto a = viz::analytic::summarize(o.input.workload, c);
            return a.recommended_column ? std::to_string(*a.recommended_column) : std::string("-");
        });
        row("memory read (bytes)", [](const JobOutput& o) { return viz::thousands(o.result.memory_bytes_read); });
        row("simulation time", [](const JobOutput& o) {
            char b[32];
            std::snprintf(b, sizeof b, "%.3f s", o.seconds);
            return std::string(b);
        });
        ImGui::EndTable();
    }
    // The analytic items of the first pane.
    if (panes_[0]->current) {
        const JobOutput& o = *panes_[0]->current;
        const CacheConfig& c = o.input.hierarchy.l1.enabled() ? o.input.hierarchy.l1 : o.input.hierarchy.l2;
        for (const auto& item : viz::analytic::summarize(o.input.workload, c).items)
            ImGui::TextWrapped("A %s  %s: %.2f  %s", item.equation.c_str(), item.meaning.c_str(), item.value, item.comparison.c_str());
    }
    ImGui::EndChild();
}

void App::frame(float dt) {
    for (int i = 0; i < 2; ++i) poll(*panes_[i]);
    if (view_.playing && total_steps() > 0) {
        view_.play_accumulator += dt * view_.speed;
        const auto adv = static_cast<std::uint64_t>(view_.play_accumulator);
        view_.play_accumulator -= static_cast<double>(adv);
        view_.playhead += adv;
        if (view_.playhead >= total_steps()) { view_.playhead = total_steps() - 1; view_.playing = false; }
    }
    for (int i = 0; i < (compare_ ? 2 : 1); ++i) request_array_view(*panes_[i]);

    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("cacheviz", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                          ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus);
    // Left: configuration.
    ImGui::BeginChild("controls", ImVec2(340, 0), true);
    ImGui::TextUnformatted("cacheviz: GPU thread schedules and caches");
    if (ImGui::Checkbox("compare two configurations", &compare_)) {
        if (compare_ && !panes_[1]->current && !panes_[1]->job) start_run(*panes_[1]);
        if (!compare_) editing_ = 0;
    }
    if (compare_) {
        ImGui::RadioButton("edit A", &editing_, 0);
        ImGui::SameLine();
        ImGui::RadioButton("edit B", &editing_, 1);
        ImGui::SameLine();
        if (ImGui::Button("copy A to B")) { panes_[1]->config = panes_[0]->config; start_run(*panes_[1]); }
    }
    ImGui::PushItemWidth(150);
    controls(*panes_[compare_ ? editing_ : 0]);
    ImGui::PopItemWidth();
    ImGui::Separator();
    if (ImGui::Button("fit view")) {
        user_moved_view();
        fit_view();
    }
    ImGui::TextDisabled("drag: pan; wheel: zoom;\nCtrl+wheel: time only; Shift+wheel: lines only;\nright click: move the playhead");
    ImGui::EndChild();
    ImGui::SameLine();

    // Right: diagrams on top, array view and stats below.
    ImGui::BeginGroup();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float bottom_h = std::min(330.0f, avail.y * 0.38f);
    const float top_h = avail.y - bottom_h - ImGui::GetStyle().ItemSpacing.y;
    const int n = compare_ ? 2 : 1;
    const float pane_w = (avail.x - ImGui::GetStyle().ItemSpacing.x * (n - 1)) / n;
    for (int i = 0; i < n; ++i) {
        if (i) ImGui::SameLine();
        diagram_pane(*panes_[i], pane_w, top_h);
    }
    visible_cells_ = 0;
    for (int i = 0; i < n; ++i) visible_cells_ += panes_[i]->texture.visible_texels() + panes_[i]->detail_texture.visible_texels();
    const float arrays_w = avail.x * 0.55f;
    array_panel(arrays_w, bottom_h);
    ImGui::SameLine();
    stats_panel(avail.x - arrays_w - ImGui::GetStyle().ItemSpacing.x, bottom_h);
    ImGui::EndGroup();
    ImGui::End();
}

}  // namespace cachesim::gui
