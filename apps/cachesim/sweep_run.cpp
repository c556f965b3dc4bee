#include "apps/cachesim/sweep_run.hpp"

#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include "apps/cachesim/gpu_report.hpp"
#include "apps/cachesim/report.hpp"
#include "traces/input_error.hpp"

namespace cachesim::cli {

std::vector<SimulationOptions> prepare_configurations(const std::vector<SweepConfiguration>& configs,
                                                      const po::options_description& simulate_options) {
    std::vector<SimulationOptions> sims;
    sims.reserve(configs.size());
    for (std::size_t i = 0; i < configs.size(); ++i) {
        std::vector<std::string> args{"sweep"};
        args.insert(args.end(), configs[i].args.begin(), configs[i].args.end());
        sims.push_back(read_simulation_args(
            std::move(args), simulate_options, "configuration " + std::to_string(i + 1) + " (" + configs[i].key + "): "));
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
        if (numeric) {
            char* end = nullptr;
            std::strtod(value.c_str(), &end);
            numeric->push_back(!value.empty() && end == value.c_str() + value.size());
        }
    }
    return names;
}

SweepColumns run_configuration(const SimulationOptions& sim, const std::atomic<bool>* cancel) {
    RunReport report = report_skeleton(sim);
    RunControl control;
    control.cancel = cancel;
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

void run_in_parallel(const std::vector<SimulationOptions>& sims, const std::vector<std::size_t>& todo,
                     unsigned jobs, const std::function<void(std::size_t, SweepColumns)>& on_done) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::exception_ptr failure;
    auto worker = [&] {
        for (;;) {
            const std::size_t n = next.fetch_add(1);
            if (n >= todo.size() || cancel.load()) return;
            try {
                SweepColumns columns = run_configuration(sims[todo[n]], &cancel);
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
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
    worker();  // the calling thread is one of the workers
    for (std::thread& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace cachesim::cli
