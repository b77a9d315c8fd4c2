package dev.roofline.core.cli;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Models;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.Serving;
import dev.roofline.core.parallel.ServingPrediction;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class ServeCommandTest {

    @Test
    void servePrintsTheLatenciesThroughputAndMemoryOfTheApi() {
        MainTest.Run r = MainTest.run(
                "serve",
                "llama-3-70b",
                "--hw",
                "h100",
                "--gpus",
                "8",
                "--input",
                "2048",
                "--output",
                "256",
                "--concurrency",
                "16");
        assertThat(r.status()).as(r.err()).isZero();
        ServingPrediction s = Serving.predict(
                Models.LLAMA_3_70B,
                Hardware.H100_SXM,
                Deployment.tensorParallel(8, Interconnect.NVLINK_4),
                Workload.decode(1, 1),
                2048,
                256,
                16);
        assertThat(r.out())
                .startsWith(
                        "Llama-3-70B on 8 x H100 SXM (TP 8, PP 1, EP 1, DP 1, 1 micro-batches, nvlink4, overlap off)")
                .contains(String.format(Locale.ROOT, "TTFT %.2f ms", s.ttftSeconds() * 1e3))
                .contains(String.format(Locale.ROOT, "time per output token %.3f ms", s.tpotSeconds() * 1e3))
                .contains(String.format(Locale.ROOT, "throughput %.1f tokens/s", s.tokensPerSecond()))
                .contains(": fits;");
    }

    @Test
    void targetsSearchTheSplitsAndNameTheWinner() {
        MainTest.Run r = MainTest.run(
                "serve",
                "llama-3-70b",
                "--hw",
                "h100",
                "--gpus",
                "8",
                "--input",
                "2048",
                "--output",
                "256",
                "--ttft",
                "2000",
                "--tpot",
                "50",
                "--search-weights",
                "fp16,fp8");
        assertThat(r.status()).as(r.err()).isZero();
        dev.roofline.core.parallel.ServingSearch.Result s = dev.roofline.core.parallel.ServingSearch.run(
                Models.LLAMA_3_70B,
                Hardware.H100_SXM,
                Interconnect.NVLINK_4,
                8,
                2048,
                256,
                2.0,
                0.050,
                java.util.List.of(
                        dev.roofline.core.precision.Precision.FP16, dev.roofline.core.precision.Precision.FP8_E4M3));
        assertThat(r.out())
                .startsWith(s.tried() + " setups tried")
                .contains("Pareto set")
                .contains(String.format(
                        Locale.ROOT,
                        "winner (most tokens/s per GPU within the targets): TP %d PP %d, W %s, concurrency %d",
                        s.winner().deployment().tensorParallel(),
                        s.winner().deployment().pipelineParallel(),
                        s.winner().weights().displayName(),
                        s.winner().concurrency()));
        MainTest.Run half = MainTest.run("serve", "llama-3-8b", "--ttft", "100");
        assertThat(half.status()).isEqualTo(2);
        assertThat(half.err()).contains("a search needs both --ttft and --tpot");
        assertThat(MainTest.run("serve", "llama-3-8b", "--ttft", "100", "--tpot", "0.001")
                        .out())
                .contains("no setup meets both targets");
    }

    @Test
    void csvAndMarkdownHoldOneRowPerSetup() {
        MainTest.Run csv = MainTest.run(
                "serve",
                "llama-3-70b",
                "--hw",
                "h200",
                "--gpus",
                "4",
                "--weights",
                "fp8",
                "--concurrency",
                "8",
                "--format",
                "csv");
        assertThat(csv.status()).as(csv.err()).isZero();
        String[] lines = csv.out().split("\r\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("model,hardware,gpus,tp,pp,ep,dp,micro-batches,link,weights,concurrency");
        assertThat(lines[1])
                .startsWith("Llama-3-70B,H200,4,4,1,1,1,1,nvlink4,FP8 E4M3,8,2048,256,")
                .endsWith(",true");
        ServingPrediction s = Serving.predict(
                Models.LLAMA_3_70B,
                Hardware.H200,
                Deployment.tensorParallel(4, Interconnect.NVLINK_4),
                Workload.decode(1, 1).withWeights(dev.roofline.core.precision.Precision.FP8_E4M3),
                2048,
                256,
                8);
        assertThat(lines[1]).contains(String.format(Locale.ROOT, ",%.4f,", s.tpotSeconds() * 1e3));
        MainTest.Run md = MainTest.run(
                "serve", "llama-3-8b", "--gpus", "2", "--ttft", "1000", "--tpot", "30", "--format", "markdown");
        assertThat(md.status()).as(md.err()).isZero();
        assertThat(md.out()).startsWith("| model | hardware | gpus |").contains("| Llama-3-8B | H100 SXM | 2 |");
    }

    @Test
    void theParetoChartIsAnSvgWithAPointPerSetup(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path svg = dir.resolve("pareto.svg");
        MainTest.Run r = MainTest.run(
                "serve",
                "llama-3-70b",
                "--gpus",
                "8",
                "--ttft",
                "2000",
                "--tpot",
                "50",
                "--search-weights",
                "fp16,fp8",
                "--svg",
                svg.toString());
        assertThat(r.status()).as(r.err()).isZero();
        String text = java.nio.file.Files.readString(svg);
        int pareto = (int) r.out().lines().filter(l -> l.startsWith("  TP ")).count();
        assertThat(pareto).isPositive();
        // one circle per Pareto setup, each closed, the winner the only filled one
        assertThat(text.split("<circle ", -1)).hasSize(pareto + 1);
        assertThat(text.split("</circle>", -1)).hasSize(pareto + 1);
        assertThat(text.split("fill=\"#274\"", -1)).hasSize(2);
        assertThat(text).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"").endsWith("</svg>\n");
        assertThat(java.nio.file.Files.readString(svg)).contains("Llama-3-70B on 8 x H100 SXM: Pareto set");
        assertThat(MainTest.run("serve", "llama-3-8b", "--svg", svg.toString()).err())
                .contains("--svg draws a search's Pareto set");
    }

    @Test
    void theSearchAsAnHtmlPageHasTheChartAndARowPerParetoSetup(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path html = dir.resolve("serving.html");
        MainTest.Run r = MainTest.run(
                "serve", "llama-3-70b", "--gpus", "8", "--ttft", "2000", "--tpot", "50", "--html", html.toString());
        assertThat(r.status()).as(r.err()).isZero();
        int pareto = (int) r.out().lines().filter(l -> l.startsWith("  TP ")).count();
        org.jsoup.nodes.Document d = org.jsoup.Jsoup.parse(java.nio.file.Files.readString(html));
        assertThat(d.title()).isEqualTo("Llama-3-70B on H100 SXM");
        assertThat(d.select("figure > svg")).hasSize(1);
        assertThat(d.select("table.sortable tbody tr")).hasSize(pareto);
        assertThat(d.select("h2").text()).startsWith("Serving on 8 GPUs: TTFT <= 2000.0 ms, TPOT <= 50.0 ms");
        assertThat(MainTest.run("serve", "llama-3-8b", "--html", html.toString())
                        .err())
                .contains("--html shows a search's Pareto set");
    }

    @Test
    void linksAreTheHardwaresOrNamed() {
        assertThat(MainTest.run("serve", "llama-3-8b", "--hw", "gb10", "--gpus", "2")
                        .out())
                .contains("cx7-200g");
        MainTest.Run a100 = MainTest.run("serve", "llama-3-8b", "--hw", "a100", "--gpus", "2");
        assertThat(a100.status()).isEqualTo(2);
        assertThat(a100.err()).contains("serve on A100 SXM 80GB needs --link NAME (one of: nvlink4, nvlink5");
        assertThat(MainTest.run("serve", "llama-3-8b", "--hw", "a100", "--gpus", "2", "--link", "pcie4")
                        .status())
                .isZero();
        MainTest.Run unknown = MainTest.run("serve", "llama-3-8b", "--link", "token-ring");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("--link: unknown interconnect 'token-ring'");
        MainTest.Run badSplit = MainTest.run("serve", "llama-3-8b", "--gpus", "3");
        assertThat(badSplit.status()).isEqualTo(1);
        assertThat(badSplit.err()).contains("32 attention heads do not split evenly over 3 tensor-parallel GPUs");
    }
}
