#include "apps/cachesim/sweep_run.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <exception>
#include <mutex>
#include <thread>

#include "apps/cachesim/gpu_report.hpp"
#include "apps/cachesim/report.hpp"
#include "apps/cachesim/sweep_record_check.hpp"
#include "sim/gpu/gpu_model.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::cli {

std::vector<SimulationOptions> prepare_configurations(const std::vector<SweepConfiguration>& configs,
                                                      const po::options_description& simulate_options) {
    std::vector<SimulationOptions> sims;
    sims.reserve(configs.size());
    for (std::size_t i = 0; i < configs.size(); ++i) {
        std::vector<std::string> args{"sweep"};
        args.insert(args.end(), configs[i].args.begin(), configs[i].args.end());
        sims.push_back(read_simulation_args(
            std::move(args), simulate_options, configuration_label(i, configs[i]),
            configs[i].unused_file_settings));
    }
    return sims;
}

namespace {

RunReport report_skeleton(const SimulationOptions& sim) {
    RunReport report;
    report.model = std::string(model_name(sim.model));
    report.workload = sim.workload;
    report.trace_path = sim.trace_shown();
    report.hierarchy = sim.hierarchy;
    return report;
}

// Timing measurements (seconds, rates) differ run to run; a sweep's CSV holds results only,
// so that it is identical whatever the thread count, rank count or machine load.
void drop_timing(SweepColumns& columns) {
    std::erase_if(columns, [](const auto& column) {
        const std::string& name = column.first;
        return name == "seconds" || (name.size() >= 10 && name.compare(name.size() - 10, 10, "per_second") == 0);
    });
}

}  // namespace

std::vector<std::string> expected_columns(const SimulationOptions& sim, std::vector<bool>* numeric) {
    RunReport report = report_skeleton(sim);
    if (sim.model == ModelKind::gpu && sim.workload) fill_gpu_report(sim, GpuResult{}, report);
    SweepColumns columns = to_columns(report);
    drop_timing(columns);
    std::vector<std::string> names;
    for (const auto& [name, value] : columns) {
        names.push_back(name);
        if (!numeric) continue;
        if (is_miss_class_column(name)) {  // empty in the skeleton; counted where the run classifies
            const CacheConfig& level = name.starts_with("l1_") ? sim.hierarchy.l1 : sim.hierarchy.l2;
            numeric->push_back(sim.model == ModelKind::thread && sim.hierarchy.analysis && level.enabled());
            continue;
        }
        char* end = nullptr;
        std::strtod(value.c_str(), &end);
        numeric->push_back(!value.empty() && end == value.c_str() + value.size());
    }
    return names;
}

SweepColumns run_configuration(const SimulationOptions& sim, const std::atomic<bool>* cancel, unsigned threads,
                               const std::function<void(double)>& progress) {
    RunReport report = report_skeleton(sim);
    RunControl control;
    control.cancel = cancel;
    control.threads = std::max(1u, threads);
    control.progress = progress;
    if (sim.model == ModelKind::gpu) {
        run_gpu_model(sim, report, control);
    } else {
        auto source = make_source(sim);
        report.result = simulate_thread_model(*source, sim.hierarchy, control);
    }
    SweepColumns columns = to_columns(report);
    drop_timing(columns);
    return columns;
}

double configuration_work(const SimulationOptions& sim) {
    if (sim.workload) {
        if (sim.model == ModelKind::gpu) return static_cast<double>(gpu_warp_requests(*sim.workload, sim.gpu));
        return static_cast<double>(sim.workload->total_accesses());
    }
    double accesses = 0;
    try {
        if (sim.trace_cst) accesses = static_cast<double>(cst::TraceFileSource(sim.trace_path).header().accesses);
    } catch (const std::exception&) {
        // An unreadable trace is reported when it runs; its weight is a guess until then.
    }
    std::error_code ec;
    if (accesses == 0 && sim.trace_path != "-" && std::filesystem::is_regular_file(sim.trace_path, ec))
        accesses = static_cast<double>(std::filesystem::file_size(sim.trace_path, ec)) / 8;  // about a record's bytes
    if (sim.model == ModelKind::gpu) accesses /= std::max(1u, sim.gpu.warp_size);
    return accesses;
}

Parallelism choose_parallelism(const std::string& command, unsigned jobs, unsigned threads, unsigned cores,
                               std::size_t configurations, bool gpu) {
    cores = std::max(1u, cores);
    const unsigned most_jobs = static_cast<unsigned>(std::clamp<std::size_t>(configurations, 1, cores));
    Parallelism p;
    if (!gpu) {  // the thread model runs on one thread
        p.jobs = jobs ? jobs : cores;
        return p;
    }
    if (jobs && threads) {
        p.jobs = jobs;
        p.threads = threads;
        p.warning = static_cast<std::uint64_t>(jobs) * threads > cores;
        if (p.warning)
            p.note = command + ": warning: --jobs " + std::to_string(jobs) + " x --threads " + std::to_string(threads) +
                     " = " + std::to_string(static_cast<std::uint64_t>(jobs) * threads) + " threads on " +
                     std::to_string(cores) + " cores: they share the cores and each run is slower";
        return p;
    }
    if (jobs) {
        p.jobs = jobs;
        p.threads = std::max(1u, cores / std::min(jobs, most_jobs));
        p.note = command + ": --jobs " + std::to_string(jobs) + ": each GPU-model run on " + std::to_string(p.threads) +
                 " thread" + (p.threads == 1 ? "" : "s") + " (--threads), for " + std::to_string(cores) + " cores";
        return p;
    }
    if (threads) {
        p.threads = threads;
        p.jobs = std::max(1u, std::min(most_jobs, cores / threads));
        p.note = command + ": --threads " + std::to_string(threads) + ": " + std::to_string(p.jobs) +
                 " configuration" + (p.jobs == 1 ? "" : "s") + " at once (--jobs), for " + std::to_string(cores) +
                 " cores";
        return p;
    }
    p.jobs = most_jobs;
    p.threads = std::max(1u, cores / p.jobs);
    return p;
}

void run_in_parallel(const std::vector<SimulationOptions>& sims, const std::vector<std::size_t>& todo,
                     unsigned jobs, const std::function<void(std::size_t, SweepColumns)>& on_done, unsigned threads,
                     const std::function<void(std::size_t, double)>& on_progress) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::exception_ptr failure;
    auto worker = [&] {
        for (;;) {
            const std::size_t n = next.fetch_add(1);
            if (n >= todo.size() || cancel.load()) return;
            try {
                std::function<void(double)> progress;
                if (on_progress) progress = [&, i = todo[n]](double fraction) { on_progress(i, fraction); };
                SweepColumns columns = run_configuration(sims[todo[n]], &cancel, threads, progress);
                std::lock_guard lock(mutex);
                on_done(todo[n], std::move(columns));
            } catch (const Cancelled&) {
                return;
            } catch (...) {
                std::lock_guard lock(mutex);
                if (!failure) failure = std::current_exception();
                cancel = true;
                return;
            }
        }
    };
    if (jobs == 0) jobs = 1;
    if (jobs > todo.size()) jobs = static_cast<unsigned>(todo.size() ? todo.size() : 1);
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < jobs; ++t) workers.emplace_back(worker);
    worker();  // the calling thread is one of the workers
    for (std::thread& t : workers) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace cachesim::cli
