#pragma once
// cacheviz's state and its ImGui interface: configuration panel, one or two diagram panes sharing
// zoom and playhead, the array view at the playhead, and the stats panel.
#include <SFML/Graphics/Texture.hpp>
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/cacheviz/array_image.hpp"
#include "apps/cacheviz/contents_job.hpp"
#include "apps/cacheviz/sim_job.hpp"
#include "apps/common/model_kind.hpp"
#include "sim/gpu/gpu_presets.hpp"
#include "viz/array_view.hpp"
#include "viz/detail_window.hpp"
#include "viz/gui/diagram_texture.hpp"

namespace cachesim::gui {

struct PaneConfig {
    WorkloadSpec workload;  // unused with a trace
    std::shared_ptr<const RecordedTrace> trace;  // cacheviz --trace: replayed instead of the workload
    HierarchyConfig hierarchy;
    cli::ModelKind model = cli::ModelKind::thread;
    GpuConfig gpu = default_gpu();   // used by the GPU model
    static GpuConfig default_gpu();
    // A measured warp order (cacheviz --start-warp-times) and whether the GPU model replays it
    // instead of its lockstep rounds.
    std::shared_ptr<const WarpTimeline> timeline;
    bool use_timeline = false;
};

// View shared by the panes (compare mode shares zoom and playhead).
struct SharedView {
    double t0 = 0, t1 = 1, r0 = 0, r1 = 1;
    bool fitted = true;  // follow new results' extent until the user pans or zooms
    std::uint64_t playhead = 0;
    bool playing = false;
    float speed = 30.0f;  // steps per second
    double play_accumulator = 0;
};

struct Pane {
    std::string name;
    PaneConfig config;
    std::string config_error;
    std::unique_ptr<SimJob> job;                    // the newest run
    std::vector<std::unique_ptr<SimJob>> retiring;  // cancelled, finishing in the background
    // Cancels `slot`'s job (if any) and moves it to `retiring`, where it finishes promptly.
    void retire(std::unique_ptr<SimJob>& slot) {
        if (!slot) return;
        slot->cancel();
        retiring.push_back(std::move(slot));
    }
    std::shared_ptr<JobOutput> current;             // the last finished run shown
    viz::gui::DiagramTexture texture;
    std::unique_ptr<SimJob> snapshot_job;
    std::optional<viz::ArrayView> array_view;  // its cells dropped: array_images holds them, per texel
    std::uint64_t array_view_step = ~std::uint64_t{0};
    // Per array: its levels (array_image.hpp), and the texture of the one drawn.
    std::vector<std::vector<ArrayImage>> array_images;
    std::vector<sf::Texture> array_textures;
    std::vector<std::size_t> array_levels;  // which level each texture holds
    std::string array_view_note;            // why there is no array view at the playhead
    std::size_t texels_written_last_frame = 0;
    // Deep zoom: a window of the current run re-recorded at one step x one line per cell, drawn
    // over the coarse cells while the view is finer than the base cells (viz/detail_window.hpp).
    std::unique_ptr<SimJob> detail_job;
    viz::DetailWindow detail_job_window;
    std::shared_ptr<JobOutput> detail;  // shown
    viz::DetailWindow detail_window;
    viz::gui::DiagramTexture detail_texture;
    std::optional<viz::DetailWindow> detail_declined;  // cancelled by the user: not asked again while it covers the view
    // Difference view (compare mode, pane B): cells where A and B differ.
    viz::gui::DiagramTexture difference_texture;
    // The caches' contents at the playhead (thread model), and the hovered line's history.
    std::unique_ptr<ContentsJob> contents_job;
    std::unique_ptr<ContentsJob> contents_shown;
    std::unique_ptr<ContentsJob> hover_job;
    // The step whose contents the array view's run in flight brings (thread model), if any.
    std::optional<std::uint64_t> contents_coming() const {
        return snapshot_job ? snapshot_job->input().contents_step : std::nullopt;
    }
    // True while the diagram and counters shown are the previous configuration's (a newer run is
    // on its way, or the new configuration failed).
    bool stale() const { return current && (job || !config_error.empty()); }
};

struct AppOptions {
    std::uint64_t max_cells = std::uint64_t{1} << 25;  // base cells of a run's diagram (RecorderOptions)
    viz::DetailPolicy detail;                         // deep zoom; detail.max_cells = 0 turns it off
    // Initial view (steps [first, second), lines [first, second)); the whole run when unset.
    std::optional<std::pair<double, double>> zoom_steps, zoom_lines;
    std::string bottom_tab = "stats";  // stats | contents | chart: the tab shown first
    // How cells sharing a texel are shown (as `cachesim diagram --aggregate`), what else colours
    // them (GPU runs: SMs or hit sources, --colour-by) and the miss-rate strip under the cells.
    viz::AggregateRule aggregate = viz::AggregateRule::density;
    viz::ColourBy colour_by = viz::ColourBy::state;
    bool miss_rate_strip = true;
    std::string save_path = "cacheviz-view.png";  // Ctrl+S
    std::uint64_t playhead = 0;  // at the start (the first runs bring its array view and contents)
};

// A row of the stats table: its label, its name in --state ("first level compulsory") and its
// value for a run.
struct StatsRow {
    std::string label, key;
    std::function<std::string(const JobOutput&)> value;
};
const std::vector<StatsRow>& stats_rows();

class App {
public:
    explicit App(PaneConfig first, std::optional<PaneConfig> compare, AppOptions options = {});
    ~App();

    // Builds the whole interface for one frame (between ImGui::NewFrame and ImGui::Render).
    void frame(float dt);
    // True while any simulation (diagram or array view) is running.
    bool busy() const;
    // Demo motion for frame-time measurement: pans and zooms a little every frame.
    void auto_motion(int frame);
    struct RunExtent {
        std::uint64_t steps = 0, rows = 0;
    };
    // The steps and lines the panes' runs span, once each pane's first run has ended; nullopt
    // while one is still running, or when none drew a diagram.
    std::optional<RunExtent> run_extent() const;
    std::size_t texels_written_last_frame() const;
    std::uint64_t visible_cells() const { return visible_cells_; }
    // Where a pane's diagram was drawn in the last frame and what it showed: for tests.
    struct Placement {
        float x = 0, y = 0, w = 0, h = 0;
        double t0 = 0, t1 = 0, r0 = 0, r1 = 0;
        // The coarse diagram's base cell, and the full-resolution window drawn over it (if any).
        std::uint64_t steps_per_column = 0, rows_per_bucket = 0;
        std::optional<viz::DetailWindow> detail;
    };
    // How pane i's texels were coloured in the last frame (the rule in effect, the density range).
    const viz::CellColouring& colouring(int i = 0) const { return panes_[i]->texture.colouring(); }
    // Pane `i` (0: A, 1: B in compare mode).
    const Placement& placement(int i = 0) const { return placements_[i]; }
    bool comparing() const { return compare_; }

    // Requests the frame loop acts on (keys Ctrl+S, Esc / Ctrl+Q; the buttons).
    bool quit_requested() const { return quit_requested_; }
    // The path to save the window to after this frame, once; empty when none.
    std::string take_save_request() { return std::exchange(save_request_, std::string()); }
    void saved(const std::string& message) { status_ = message; }
    // The visible state as "key value" lines (cacheviz --state): for tests and scripts.
    std::string state_text() const;
    // `cachesim diagram` options reproducing pane i's run and the view's steps.
    std::string diagram_command(int pane) const;

private:
    void start_run(Pane& pane);
    void poll(Pane& pane);
    void controls(Pane& pane);
    void diagram_pane(Pane& pane, float width, float height);
    void array_panel(float width, float height);
    void stats_panel(float width, float height);
    void stats_table();
    void contents_panel();
    void memory_chart_panel();
    void colour_legend();
    void view_options();
    // The miss-rate strip of a pane under its cells (x, y, w, h), following the view's steps.
    void miss_rate_strip(Pane& pane, float x, float y, float w, float h);
    // Text drawn beside a pane's cells in the last frame, for --state: the label and its box.
    struct LabelShown {
        std::string text;
        float x = 0, y = 0, w = 0, h = 0;
    };
    // Under the difference box, where it is ticked but the panes' diagrams differ in shape: why.
    void difference_unavailable_note();
    // The left margin's array names and element rows (y=...) for the cells at (left, top), `h`
    // high; the row labels drawn land in `shown`.
    void row_labels(const viz::Diagram& d, float margin_left, float left, float top, float h, std::vector<LabelShown>& shown,
                    const std::string& pane);
    // The time axis's ticks and labels under cells from x to x + w; the labels land in `shown`.
    void time_axis(float x, float y, float w, std::vector<LabelShown>& shown);
    // The time axis's title centred under cells from x to x + w, its top at y: the longest of its
    // forms that fits there (pane: "A" or "B", for --state).
    void time_axis_title(const JobOutput& run, float x, float y, float w, const std::string& pane);
    // The notes the PNG's legend prints for pane i's run (configuration, misses, thesis bounds
    // where they apply, or why not).
    std::vector<std::string> run_notes(int i) const;
    void bottom_right_panel(float width, float height);
    void handle_keys();
    void request_contents(Pane& pane);
    void hover_history(Pane& pane, std::uint64_t step, std::uint64_t row);
    void update_difference(const viz::gui::Viewport& vp);
    bool splitter(const char* id, bool vertical, float length, float& size, float min_size, float max_size);
    void playhead_controls();
    void fit_view();
    void clamp_view();
    void request_array_view(Pane& pane);
    // Shows the array view and the cache contents a run brought for a step (ask_for_step).
    void take_step_results(Pane& pane, JobOutput& out);
    void update_detail(Pane& pane, const viz::ViewExtent& view);
    void drop_detail(Pane& pane);
    void detail_status(Pane& pane);
    void user_moved_view();
    std::uint64_t total_steps() const;
    std::uint64_t total_rows() const;

    std::vector<std::unique_ptr<Pane>> panes_;
    bool compare_ = false;
    int editing_ = 0;
    AppOptions options_;
    SharedView view_;
    std::uint64_t visible_cells_ = 0;
    Placement placements_[2];
    bool quit_requested_ = false;
    std::string save_request_;
    std::string status_;  // the last save / copy, shown under the controls
    // Layout: the panes' sizes, dragged with the splitters between them. The controls column is
    // a share of the window's width: a quarter until its bar is dragged, and then no wider than
    // its fields and labels side by side need (about 400 pixels); never narrower than its widest
    // frame (the caches' "through, no allocate" box) with the column's padding and scroll bar.
    static constexpr float kControlsMinWidth = 200, kControlsDefaultMaxWidth = 400;
    static constexpr float kMinFrameBesideLabel = 100;  // a narrower frame gets its label above it
    std::optional<float> controls_share_;  // set by dragging the column's bar
    float controls_w_ = 0, bottom_h_ = -1, arrays_w_ = -1;
    bool show_difference_ = false;
    bool first_tab_frame_ = true;  // selects AppOptions::bottom_tab once
    int contents_pane_ = 0;
    std::uint64_t contents_scrolled_step_ = ~std::uint64_t{0};
    std::string last_command_[2];  // the last copied command per pane
    // What each pane's strip showed in the last frame (for --state): where, its scale's top and
    // each level's mean miss rate over the view's steps.
    struct StripShown {
        float x = 0, y = 0, w = 0, h = 0;
        double top_rate = 0;
        std::vector<std::pair<std::string, double>> levels;
    };
    StripShown strips_[2];
    std::vector<LabelShown> time_labels_[2], row_labels_[2];
    // Where each pane's arrays were drawn in the last frame (x, y, w, h inside the border).
    std::vector<std::pair<std::string, std::array<float, 4>>> array_rects_[2];
    // Where named buttons were drawn in the last frame (x, y, w, h), for scripted tests.
    std::vector<std::pair<std::string, std::array<float, 4>>> widgets_;
    void note_widget(const std::string& name);
};

}  // namespace cachesim::gui
