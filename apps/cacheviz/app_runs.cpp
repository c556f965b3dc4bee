// Starting simulations for a pane (the run, the deep-zoom window, the array view at the
// playhead) and picking up their results.
#include "apps/cacheviz/app.hpp"

#include <algorithm>
#include <string>

#include "apps/common/cli_errors.hpp"
#include "viz/render.hpp"

namespace cachesim::gui {

namespace {

// Asks a run for the array view and (thread model) the cache contents after `step` too: the run
// drawn brings those of the playhead, so that they need no second simulation (a large cache
// alone takes seconds to set up).
void ask_for_step(JobInput& in, std::uint64_t step) {
    in.recorder.snapshot_step = step;
    // Larger arrays share a texel among a block of elements (array_image.hpp).
    in.array_view_texels = std::min(kMaxArrayTexels, sf::Texture::getMaximumSize());
    if (!in.gpu_model) in.contents_step = step;
}

// The input of a run shown, to simulate again for something else (the caller says what).
JobInput rerun_of(const JobOutput& run) {
    JobInput in = run.input;
    in.array_view_texels = 0;
    in.contents_step.reset();
    return in;
}

ContentsRequest contents_request(const JobOutput& run, std::uint64_t step, std::optional<std::uint64_t> focus) {
    ContentsRequest r;
    r.workload = run.input.workload;
    r.trace = run.input.trace;
    r.hierarchy = run.input.hierarchy;
    r.step = step;
    r.focus_line = focus;
    return r;
}

}  // namespace

void App::start_run(Pane& pane) {
    pane.config_error.clear();
    try {
        if (!pane.config.trace) validate(pane.config.workload);
        if (pane.config.model == cli::ModelKind::gpu) validate(pane.config.gpu);
        else validate(pane.config.hierarchy);
    } catch (const std::exception& e) {
        pane.config_error = cli::error_text(e);
        return;
    }
    // A newer change cancels the older run; it finishes (promptly) in the background.
    pane.retire(pane.job);
    JobInput in;
    in.workload = pane.config.workload;
    in.hierarchy = pane.config.hierarchy;
    in.gpu_model = pane.config.model == cli::ModelKind::gpu;
    in.gpu = pane.config.gpu;
    in.gpu.timeline = nullptr;
    in.trace = pane.config.trace;
    if (in.trace) in.gpu.block = in.trace->threads_per_block();  // the GPU model replays the recorded blocks
    if (in.gpu_model && pane.config.use_timeline && pane.config.timeline) {
        in.timeline = pane.config.timeline;
        in.gpu.timeline = in.timeline.get();
    }
    in.recorder.max_cells = options_.max_cells;
    in.recorder.record_sm = in.gpu_model;  // for "colour by": SM
    in.recorder.record_hit_sources = in.gpu_model;  // and hit source
    ask_for_step(in, view_.playhead);
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
    JobInput in = rerun_of(*pane.current);
    in.recorder = viz::detail_recorder_options(*w);
    in.recorder.record_sm = pane.current->input.recorder.record_sm;
    in.recorder.record_hit_sources = pane.current->input.recorder.record_hit_sources;
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
            pane.difference_texture.set_diagram(nullptr);
            for (auto& p : panes_) p->difference_texture.set_diagram(nullptr);  // A's change changes B's differences
            pane.contents_job.reset();
            pane.contents_shown.reset();
            pane.hover_job.reset();
            drop_detail(pane);
            if (extent_changed && (view_.fitted || &pane == panes_[0].get())) fit_view();
            view_.playhead = std::min<std::uint64_t>(view_.playhead, total_steps() ? total_steps() - 1 : 0);
            pane.array_view_step = ~std::uint64_t{0};
            pane.retire(pane.snapshot_job);  // it simulates the previous configuration
            take_step_results(pane, *out);
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
    if (pane.contents_job && pane.contents_job->done()) pane.contents_shown = std::move(pane.contents_job);
    if (pane.snapshot_job && pane.snapshot_job->done()) {
        std::shared_ptr<JobOutput> out = pane.snapshot_job->output();
        pane.snapshot_job.reset();
        if (out && out->error.empty() && out->array_view) {
            take_step_results(pane, *out);
        } else if (out) {
            // The step is past the run's end (a GPU run's rounds), or its re-simulation failed.
            pane.array_view.reset();
            pane.array_view_note = out->error.empty() ? "no snapshot of step " + std::to_string(out->input.recorder.first_step)
                                                        : out->error;
        }
    }
}

void App::take_step_results(Pane& pane, JobOutput& out) {
    if (out.contents)
        pane.contents_shown = std::make_unique<ContentsJob>(contents_request(out, out.contents->step, std::nullopt),
                                                            std::move(*out.contents));
    if (!out.array_view) return;
    // The panel uploads the level it draws (array_panel.cpp).
    pane.array_view = std::move(out.array_view);
    pane.array_images = std::move(out.array_images);
    pane.array_textures.clear();
    pane.array_textures.resize(pane.array_images.size());
    pane.array_levels.assign(pane.array_images.size(), ~std::size_t{0});
    pane.array_view_note.clear();
    pane.array_view_step = pane.array_view->step;
}

void App::request_array_view(Pane& pane) {
    if (!pane.current || pane.array_view_step == view_.playhead) return;
    if (pane.snapshot_job && !pane.snapshot_job->done()) {
        if (pane.snapshot_job->input().recorder.first_step == view_.playhead) return;
        pane.retire(pane.snapshot_job);
    }
    if (view_.playhead >= pane.current->diagram->steps()) return;
    JobInput in = rerun_of(*pane.current);
    in.recorder = {};
    in.recorder.first_step = view_.playhead;
    in.recorder.window_steps = 1;
    ask_for_step(in, view_.playhead);  // the contents at the playhead come with it
    in.stop_after_window = true;  // the steps after the playhead cannot change its snapshot
    in.run_fraction = static_cast<double>(view_.playhead + 1) / static_cast<double>(std::max<std::uint64_t>(pane.current->diagram->steps(), 1));
    pane.snapshot_job = std::make_unique<SimJob>(std::move(in));
    pane.array_view_step = view_.playhead;
}

}  // namespace cachesim::gui

namespace cachesim::gui {

void App::request_contents(Pane& pane) {
    if (!pane.current || pane.current->input.gpu_model || !pane.current->diagram) return;
    const std::uint64_t steps = pane.current->diagram->steps();
    if (steps == 0) return;
    const std::uint64_t step = std::min(view_.playhead, steps - 1);
    if (pane.contents_job) {
        if (pane.contents_job->request().step == step) return;  // on its way
        pane.contents_job.reset();                                // cancels it
    }
    if (pane.contents_shown && pane.contents_shown->request().step == step) return;
    if (pane.contents_coming() == step) return;  // the array view's run brings them
    pane.contents_job = std::make_unique<ContentsJob>(contents_request(*pane.current, step, std::nullopt));
}

void App::hover_history(Pane& pane, std::uint64_t step, std::uint64_t row) {
    if (!pane.current || pane.current->input.gpu_model || !pane.current->diagram) return;
    const std::uint64_t line = pane.current->diagram->layout().line_of_row(row);
    if (pane.hover_job && pane.hover_job->request().step == step && pane.hover_job->request().focus_line == line) return;
    pane.hover_job = std::make_unique<ContentsJob>(contents_request(*pane.current, step, line));
}

}  // namespace cachesim::gui
