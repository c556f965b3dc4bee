// cachesim sweep: the cross product of simulate options given as lists or ranges, run in
// parallel on all cores (and over MPI ranks), written as CSV (+ a heat map); resumable.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <unordered_map>

#include "apps/common/atomic_file.hpp"
#include "apps/common/memory_estimate.hpp"
#include "apps/common/options.hpp"
#include "apps/cachesim/gpu_report.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "apps/cachesim/sweep_expand.hpp"
#include "apps/cachesim/number_text.hpp"
#include "apps/cachesim/sweep_inputs.hpp"
#include "apps/cachesim/sweep_lock.hpp"
#include "apps/cachesim/sweep_mpi.hpp"
#include "apps/cachesim/sweep_plot.hpp"
#include "apps/cachesim/sweep_progress.hpp"
#include "apps/cachesim/sweep_results.hpp"
#include "apps/cachesim/sweep_run.hpp"
#include "sim/gpu/known_misses.hpp"
#include "sim/gpu/l1_hit_sources.hpp"
#include "traces/atomic_output.hpp"
#include "traces/ncu_metrics.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

namespace {

// Rows read back keyed as this sweep keys them: an output written with other spellings of the same
// values resumes instead of rerunning them, and its duplicates of one configuration become one row.
FinishedResults with_canonical_keys(FinishedResults read, const po::options_description& simulate) {
    FinishedResults canonical;
    canonical.notes = std::move(read.notes);
    for (const std::string& key : read.order) {
        std::string mine = canonical_configuration_key(key, simulate);
        if (!canonical.rows.count(mine)) canonical.order.push_back(mine);
        canonical.rows[mine] = std::move(read.rows[key]);
    }
    return canonical;
}

po::options_description sweep_options() {
    po::options_description d("Sweep");
    d.add_options()
        ("help,h", "show this help")
        ("output,out,o", po::value<std::string>(),
         "write the CSV to FILE (atomically); rerunning with the same FILE skips finished configurations "
         "and keeps rows of other configurations; one sweep at a time per FILE (FILE.lock)")
        ("format", po::value<std::string>(), "csv, the only format of a sweep's output (one row per configuration)")
        ("plot", po::value<std::string>(), "also draw a heat map PNG")
        ("plot-x", po::value<std::string>(),
         "heat map columns: this option's values, e.g. l1-size (default: the last varied option); needs --plot")
        ("plot-y", po::value<std::string>(), "heat map rows (default: the varied option before it); needs --plot")
        ("plot-value", po::value<std::string>()->default_value("l1_hit_rate"),
         "heat map colour: a numeric CSV column; needs --plot")
        ("jobs,j", po::value<unsigned>()->default_value(0),
         "configurations run at once per process; 0 = all cores (GPU model: cores / --threads)")
        ("threads", po::value<unsigned>()->default_value(0),
         "GPU model: threads of each configuration's run (0: the cores --jobs leaves; by default jobs x threads "
         "<= cores); results do not depend on it")
        ("fresh", po::bool_switch(), "start over: ignore FILE's rows and the partial logs of earlier runs")
        ("hit-sources", po::bool_switch(),
         "GPU model: count every configuration's L1 read hits by who brought the sector (columns "
         "l1_hits_own_warp, l1_hits_own_block, l1_hits_other_block; cachesim simulate --hit-sources)")
        ("quiet,q", po::bool_switch(), "no progress bar");
    d.add(memory_options());
    return d;
}

// Every option a sweep takes: its own, and simulate's, which it passes on to each configuration.
po::options_description own_and_simulate_options(const po::options_description& own) {
    po::options_description all;
    all.add(own);
    all.add(simulation_option_groups());
    return all;
}

constexpr const char* kUsage =
    "usage: cachesim sweep [sweep options] [simulate options, each a value, a list or a range]\n\n"
    "Runs every combination of the given simulate options and writes one CSV row per configuration\n"
    "(the columns of `cachesim simulate --format csv`, after a sweep_config column).\n"
    "  lists:  --schedule linear,column:8,column:16   --trace a.cst,b.cst\n"
    "  ranges: --l1-size 32K..256K*2 (x2 steps)   --l1-ways 1..16+3 (+3 steps)   --seed 1..5\n"
    "Configurations run in parallel on all cores; under `mpirun -n N` they are spread over the\n"
    "ranks and rank 0 writes the CSV.\n"
    "Example: cachesim sweep --size 1024x1024 --stencil 9x9 --schedule linear,column:8,column:32 \\\n"
    "           --l1-size 16K..128K*2 --l1-line 128 -o sweep.csv --plot sweep.png";

// Separates the sweep's own options from the simulate options that make up the axes.
void split_arguments(int argc, char** argv, const po::options_description& own, std::vector<std::string>& own_tokens,
                     std::vector<std::string>& axis_tokens) {
    for (int i = 1; i < argc; ++i) {
        const std::string token = argv[i];
        std::string name;
        if (token.rfind("--", 0) == 0) name = token.substr(2, token.find('=') - 2);
        else if (token.size() == 2 && token[0] == '-') name = token.substr(1);
        const auto* option = name.empty() ? nullptr : own.find_nothrow(name, false, false, true);
        if (!option && token.size() == 2 && token[0] == '-') {
            for (const auto& o : own.options())
                if (o->canonical_display_name(po::command_line_style::allow_dash_for_short) == token) option = o.get();
        }
        if (!option) {
            axis_tokens.push_back(token);
            continue;
        }
        own_tokens.push_back(token);
        if (option->semantic()->max_tokens() > 0 && token.find('=') == std::string::npos && i + 1 < argc)
            own_tokens.push_back(argv[++i]);
    }
}

struct SweepSettings {
    std::string output, plot, plot_x, plot_y, plot_value;
    unsigned jobs = 0, threads = 1;
    bool quiet = false, fresh = false;
};

// The heat map's options shape the --plot image: without it they would go unused, silently.
void check_plot_options_have_a_plot(const po::variables_map& vm) {
    if (vm.count("plot")) return;
    for (const char* option : {"plot-x", "plot-y", "plot-value"})
        if (vm.count(option) && !vm[option].defaulted())
            throw InputError(std::string("--") + option + " " + vm[option].as<std::string>() +
                             " needs --plot FILE.png: without it no heat map is drawn");
}

// A sweep writes CSV whatever else it is asked for.
void check_format(const po::variables_map& vm) {
    if (!vm.count("format")) return;
    std::string format = vm["format"].as<std::string>();
    std::transform(format.begin(), format.end(), format.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (format != "csv")
        throw InputError("--format " + vm["format"].as<std::string>() +
                         ": a sweep's output is always CSV, one row per configuration; leave --format out "
                         "(cachesim simulate reports a single configuration as a table or JSON)");
}

// CSV in a file named for another format would mislead whoever opens it.
void check_csv_output_name(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static const std::set<std::string> kImages{".png", ".jpg", ".jpeg", ".gif", ".bmp", ".svg", ".pdf"};
    static const std::set<std::string> kCompressed{".gz", ".zst", ".xz", ".bz2"};
    static const std::set<std::string> kOthers{".json", ".jsonl", ".tsv", ".xlsx", ".xls", ".ods", ".parquet", ".html"};
    std::string hint;
    if (kImages.count(ext)) hint = " (--plot FILE.png draws the heat map)";
    else if (kCompressed.count(ext)) hint = " (uncompressed: compress it afterwards)";
    else if (ext == ".json") hint = " (cachesim simulate --format json reports one configuration as JSON)";
    else if (!kOthers.count(ext)) return;
    throw InputError("--output " + path + ": a sweep writes CSV, not " + ext.substr(1) + "; name the file .csv" + hint);
}

// `--plot --plot-x l1-size` takes "--plot-x" as the file: refused rather than written, naming the
// option that went missing.
void check_file_is_no_option(const std::string& path, const std::string& option, const po::options_description& own,
                             const po::options_description& simulate) {
    const std::size_t name_start = path.find_first_not_of('-');
    if (path.size() < 2 || path[0] != '-' || name_start == std::string::npos) return;
    const std::string name = path.substr(name_start);
    const std::string bare = name.substr(0, name.find('='));
    if (own.find_nothrow(bare, false) || simulate.find_nothrow(bare, false))
        throw InputError(option + " " + path + ": that is an option, not a file name; " + option + " needs a FILE");
}

std::vector<std::size_t> my_share(const std::vector<SweepConfiguration>& configs,
                                  const std::map<std::string, SweepColumns>& finished, int rank, int ranks) {
    std::vector<std::size_t> todo;
    std::size_t pending = 0;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        if (finished.count(configs[i].key)) continue;
        if (static_cast<int>(pending++ % static_cast<std::size_t>(ranks)) == rank) todo.push_back(i);
    }
    return todo;
}

// What an interrupted sweep tells its user: how far it got and how to go on from there.
std::unique_ptr<InterruptNotice> interrupt_notice(const std::string& output, bool resumable, std::size_t resumed,
                                                  std::size_t total) {
    std::string after = " configurations; ";
    if (resumable)
        after += "rerun the same command to resume: finished rows are kept (in " + partial_log_path(output, 0) + ")";
    else
        after += "nothing was kept: only a sweep into a file (-o FILE.csv) can resume, so a rerun starts over";
    return std::make_unique<InterruptNotice>("sweep: interrupted after ", resumed, total, after);
}

// A row's points of its L1 hit rate from sectors another block brought, where it counted the L1's
// hit sources (a row resumed from an older file may not have).
std::optional<double> other_block_points(const SweepColumns& row) {
    const auto value = [&](std::string_view name) -> const std::string* {
        for (const auto& [column, text] : row)
            if (column == name) return &text;
        return nullptr;
    };
    const auto count = [&](std::string_view name) -> std::optional<std::uint64_t> {
        const std::string* text = value(name);
        std::uint64_t n = 0;
        if (!text || text->empty()) return std::nullopt;
        const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), n);
        if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
        return n;
    };
    const std::optional<std::uint64_t> hits = count("l1_hits_other_block"), sectors = count(ncu::kL1Sectors);
    if (!hits || !sectors) return std::nullopt;
    L1HitSourceCounts counts;
    counts.other_block = *hits;
    return counts.other_block_points(*sectors);
}

// For each region where the GPU model is known to miss the chip (sim/gpu/known_misses.hpp): how
// many of the configurations are in it, the first of them, and what was measured there. rows: the
// configurations' results, in their order.
void print_cautions(const std::vector<SweepConfiguration>& configs, const std::vector<SimulationOptions>& sims,
                    const std::vector<SweepColumns>& rows) {
    std::vector<const KnownMiss*> regions;
    std::vector<std::size_t> counts, firsts;
    for (std::size_t i = 0; i < sims.size(); ++i) {
        if (sims[i].model != ModelKind::gpu) continue;
        const WorkloadSpec* workload = sims[i].workload ? &*sims[i].workload : nullptr;
        for (const KnownMiss* miss : known_misses(workload, sims[i].gpu, other_block_points(rows[i]))) {
            const auto at = std::find(regions.begin(), regions.end(), miss);
            if (at != regions.end()) {
                ++counts[static_cast<std::size_t>(at - regions.begin())];
                continue;
            }
            regions.push_back(miss);
            counts.push_back(1);
            firsts.push_back(i);
        }
    }
    for (std::size_t k = 0; k < regions.size(); ++k) {
        const std::string label = configuration_label(firsts[k], configs[firsts[k]]);
        std::cerr << "sweep: caution: " << counted(counts[k], "configuration") << " (the first: "
                  << label.substr(0, label.size() - 2) << ") where the model is known to miss the chip: "
                  << regions[k]->sentence() << "\n";
    }
}

}  // namespace

int run_sweep(int argc, char** argv) {
    const po::options_description own = sweep_options();
    note_known_options(own_and_simulate_options(own));  // a slip of either gets "did you mean"
    std::vector<std::string> own_tokens, axis_tokens;
    split_arguments(argc, argv, own, own_tokens, axis_tokens);
    po::variables_map vm;
    const po::parsed_options own_parsed = po::command_line_parser(own_tokens).style(kCommandLineStyle).options(own).run();
    check_parsed(own_parsed, "");
    po::store(own_parsed, vm);
    const po::options_description simulate = simulation_option_groups();  // every configuration is read against it
    if (vm.count("help")) {
        std::cout << kUsage << "\n\n" << own << "\nSimulate options (each may be a list or range):\n" << simulate << "\n";
        return 0;
    }
    po::notify(vm);
    SweepSettings s;
    if (vm.count("output")) s.output = vm["output"].as<std::string>();
    if (vm.count("plot")) s.plot = vm["plot"].as<std::string>();
    if (vm.count("plot-x")) s.plot_x = vm["plot-x"].as<std::string>();
    if (vm.count("plot-y")) s.plot_y = vm["plot-y"].as<std::string>();
    s.plot_value = vm["plot-value"].as<std::string>();
    const unsigned jobs_given = vm["jobs"].as<unsigned>(), threads_given = vm["threads"].as<unsigned>();
    if (threads_given > 1024) throw InputError("--threads " + std::to_string(threads_given) + " must be between 0 and 1024");
    s.quiet = vm["quiet"].as<bool>();
    s.fresh = vm["fresh"].as<bool>();
    if (vm.count("output") && s.output.empty()) throw InputError("--output: empty file name");
    if (vm.count("plot") && s.plot.empty()) throw InputError("--plot: empty file name");
    if (vm.count("plot")) check_png_name(s.plot, "--plot");
    check_plot_options_have_a_plot(vm);
    check_format(vm);
    if (!s.output.empty()) {
        check_file_is_no_option(s.output, "--output", own, simulate);
        check_csv_output_name(s.output);
    }
    if (!s.plot.empty()) check_file_is_no_option(s.plot, "--plot", own, simulate);

    const std::vector<SweepAxis> axes = parse_sweep_axes(axis_tokens, simulate);
    std::vector<SweepConfiguration> configs = expand_configurations(axes);
    keep_options_that_apply(configs, axes, simulate);
    std::vector<SimulationOptions> sims = prepare_configurations(configs, simulate);
    // After validation: a config file is read for its settings only once it is known to parse.
    for (SweepConfiguration& c : configs) c.key += input_fingerprint(c, simulate);
    // Values spelled as read, so that a sweep resumed with its values written differently finds its rows.
    for (SweepConfiguration& c : configs) c.key = canonical_configuration_key(c.key, simulate);
    if (vm["hit-sources"].as<bool>())
        for (std::size_t i = 0; i < sims.size(); ++i) {
            if (sims[i].model != ModelKind::gpu)
                throw InputError(configuration_label(i, configs[i]) + "--hit-sources counts the GPU model's L1 hits: it needs --model gpu (or a GPU preset)");
            sims[i].gpu.count_l1_hit_sources = true;
        }
    for (SimulationOptions& sim : sims) count_hit_sources_for_cautions(sim);
    const bool any_gpu = std::any_of(sims.begin(), sims.end(), [](const SimulationOptions& sim) { return sim.model == ModelKind::gpu; });
    const Parallelism parallel =
        choose_parallelism("sweep", jobs_given, threads_given, workers_or_all_cores(0), sims.size(), any_gpu);
    s.jobs = parallel.jobs;
    s.threads = parallel.threads;
    if (!parallel.note.empty() && (!s.quiet || parallel.warning)) std::cerr << parallel.note << "\n";
    // Each configuration's memory is estimated before any runs; --jobs of them run at once and
    // share the limit.
    const std::uint64_t max_memory = max_memory_option(vm);
    const std::size_t at_once = std::max<std::size_t>(1, std::min<std::size_t>(s.jobs, sims.size()));
    for (std::size_t i = 0; i < sims.size(); ++i) {
        try {
            sims[i].gpu_traffic_memory_limit = estimate_memory(sims[i], max_memory / at_once).gpu_traffic_limit();
        } catch (const InputError& e) {
            throw InputError(configuration_label(i, configs[i]) + e.what() +
                             (at_once > 1 ? " (the limit is shared by the " + std::to_string(at_once) +
                                                " configurations that run at once: --jobs)"
                                          : std::string()));
        }
    }
    std::unordered_map<std::string, std::size_t> index_of;
    for (std::size_t i = 0; i < configs.size(); ++i) index_of.emplace(configs[i].key, i);

    // Every output is checked before the first configuration runs, not after hours of them.
    std::vector<NamedPath> traces;
    for (const SimulationOptions& sim : sims)
        if (!sim.trace_path.empty()) traces.push_back({sim.trace_shown(), "--trace"});
    std::vector<NamedPath> outputs;
    if (!s.output.empty()) outputs.push_back({s.output, "--output"});
    if (!s.plot.empty()) outputs.push_back({s.plot, "--plot"});
    check_outputs(outputs, traces);
    if (!s.plot.empty()) {
        const std::string x_given = s.plot_x, y_given = s.plot_y;
        if (vm.count("plot-x")) s.plot_x = plot_axis_option(axes, simulate, s.plot_x, "--plot-x");
        if (vm.count("plot-y")) s.plot_y = plot_axis_option(axes, simulate, s.plot_y, "--plot-y");
        check_distinct_plot_axes(x_given, s.plot_x, y_given, s.plot_y);
        heat_map_axes(axes, configs, s.plot_x, s.plot_y);
        for (const SimulationOptions& sim : sims) {
            std::vector<bool> numeric;
            const std::vector<std::string> columns = expected_columns(sim, &numeric);
            s.plot_value = plot_value_column(s.plot_value, columns);
            check_heat_map_options(axes, s.plot_x, s.plot_y, s.plot_value, columns, numeric);
        }
    }
    // Resuming, locking and keeping earlier rows apply to a file that is replaced; a FIFO or a
    // device is only written to.
    const bool resumable = !s.output.empty() && is_replaced_file(s.output);
    if (resumable) check_sweep_output_replaceable(s.output);

    MpiSession mpi;
    std::unique_ptr<SweepLock> lock;
    FinishedResults finished;
    std::string setup_error;
    try {
        if (resumable && mpi.rank() == 0) {
            lock = std::make_unique<SweepLock>(s.output);
            if (s.fresh) remove_partial_logs(s.output);
        }
    } catch (const InputError& e) {
        setup_error = e.what();
    }
    if (!mpi.all_succeeded(setup_error.empty()))
        throw InputError(setup_error.empty() ? "another MPI rank could not start" : setup_error);
    if (resumable && !s.fresh) {
        finished = load_finished(s.output, [&](const std::string& key) {
            const auto found = index_of.find(canonical_configuration_key(key, simulate));
            return found == index_of.end() ? std::vector<std::string>{} : expected_columns(sims[found->second]);
        });
        finished = with_canonical_keys(std::move(finished), simulate);
        if (mpi.rank() == 0)
            for (const std::string& note : finished.notes) std::cerr << "sweep: " << note << "\n";
    }
    // Every rank must split the work from the same resume state: none may start writing its
    // partial log before all have read the logs (a late rank would otherwise count a sibling's
    // fresh results as finished, shift its share, and leave configurations to no one).
    mpi.barrier();
    for (const SweepConfiguration& c : configs)
        if (reads_standard_input(c)) finished.rows.erase(c.key);
    std::size_t resumed = 0;
    for (const SweepConfiguration& c : configs) resumed += finished.rows.count(c.key);
    const std::vector<std::size_t> todo = my_share(configs, finished.rows, mpi.rank(), mpi.size());

    std::vector<std::pair<std::string, SweepColumns>> mine;
    std::string error;
    const auto start = std::chrono::steady_clock::now();
    try {
        std::unique_ptr<PartialLog> log;
        if (resumable && !todo.empty()) {
            log = std::make_unique<PartialLog>(partial_log_path(s.output, mpi.rank()));
            if (log->torn_bytes_removed() > 0)
                std::cerr << "sweep: " << log->path() << ": cut off a torn last record (" << log->torn_bytes_removed()
                          << " bytes) left by an interrupted run; its configuration runs again\n";
        }
        std::string label = "sweep";
        if (mpi.active()) label += " rank " + std::to_string(mpi.rank()) + "/" + std::to_string(mpi.size());
        // The percentage counts the work done inside running configurations too; the count, the
        // finished ones. The summary below gives the time.
        ProgressStyle style;
        style.counted = "finished";
        style.final_time = false;
        ProgressBar progress(label, todo.size(), !s.quiet && mpi.rank() == 0, style);
        std::unique_ptr<InterruptNotice> notice;
        // Under MPI a rank knows only its own count: mpirun reports the interruption.
        if (!mpi.active()) notice = interrupt_notice(s.output, resumable, resumed, configs.size());
        // Progress by work: todo[k]'s share is its accesses or warp requests.
        std::vector<double> work;
        std::unordered_map<std::size_t, std::size_t> position;  // configuration -> its place in todo
        for (std::size_t k = 0; k < todo.size(); ++k) {
            work.push_back(configuration_work(sims[todo[k]]));
            position.emplace(todo[k], k);
        }
        WorkProgress done(std::move(work));
        run_in_parallel(
            sims, todo, s.jobs,
            [&](std::size_t index, SweepColumns columns) {
                if (log) log->append(configs[index].key, columns);
                if (notice) notice->finished_one();
                mine.emplace_back(configs[index].key, std::move(columns));
                done.finish(position.at(index));
                progress.update(mine.size(), done.fraction());
            },
            s.threads,
            [&](std::size_t index, double fraction) {
                done.report(position.at(index), fraction);
                progress.update(done.finished(), done.fraction());
            });
        progress.finish();
    } catch (const InputError& e) {
        error = e.what();
    } catch (const SimulationError& e) {
        error = e.what();
    }
    // Every rank learns whether all succeeded before gathering, so a failure cannot hang the rest.
    if (!mpi.all_succeeded(error.empty())) {
        if (!error.empty()) throw InputError(error);
        throw InputError("another MPI rank failed; finished configurations are kept for a rerun");
    }
    const std::vector<std::string> parts = mpi.gather(encode_results(mine));
    if (mpi.rank() != 0) return 0;
    for (std::size_t r = 1; r < parts.size(); ++r)
        for (auto& [key, columns] : decode_results(parts[r], "results of MPI rank " + std::to_string(r)))
            finished.rows[key] = std::move(columns);
    for (auto& [key, columns] : mine) finished.rows[key] = std::move(columns);

    std::vector<std::string> keys;
    std::vector<SweepColumns> rows;
    keys.reserve(configs.size());
    rows.reserve(configs.size());
    for (const SweepConfiguration& c : configs) {
        const auto found = finished.rows.find(c.key);
        if (found == finished.rows.end()) throw std::logic_error("sweep: configuration '" + c.key + "' has no result");
        keys.push_back(c.key);
        rows.push_back(found->second);
    }
    if (!s.plot.empty()) {
        const HeatMap map = build_heat_map(axes, configs, rows, s.plot_x, s.plot_y, s.plot_value);
        write_file_atomically(s.plot, viz::encode_png(render_heat_map(map)));
    }
    // Rows of an earlier, different sweep into the same file are kept after this sweep's: a
    // narrower rerun never drops results silently.
    std::size_t kept = 0;
    for (const std::string& key : finished.order)
        if (!index_of.count(key)) {
            keys.push_back(key);
            rows.push_back(finished.rows[key]);
            ++kept;
        }
    const std::string csv = format_sweep_csv(keys, rows);
    if (s.output.empty()) {
        std::cout << csv;
    } else {
        write_file_atomically(s.output, csv);
        if (resumable) remove_partial_logs(s.output);
    }
    if (kept > 0)
        std::cerr << "sweep: kept " << kept << " earlier row" << (kept == 1 ? "" : "s") << " of " << s.output
                  << " from configurations outside this sweep, after its rows (--fresh starts over without them)\n";
    print_cautions(configs, sims, rows);
    if (!s.quiet) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "sweep: " << counted(configs.size(), "configuration") << " (" << resumed << " already done) in "
                  << format_duration(seconds) << " on " << counted(s.jobs, "thread")
                  << (any_gpu && s.threads > 1 ? " x " + std::to_string(s.threads) + " GPU-model threads each" : std::string())
                  << (mpi.active() ? " x " + std::to_string(mpi.size()) + " ranks" : std::string()) << "\n";
    }
    return 0;
}

}  // namespace cachesim::cli
