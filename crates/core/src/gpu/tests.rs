//! The hardware tables against NVIDIA's published numbers, the layouts the user guide says fit
//! or do not, and `nvidia-smi` against listings the real tool printed.

use super::device::Gpu;
use super::machine::{GpuInventory, GpuMachine, MigStrategy};
use super::mig::MigLayout;
use super::model::{self, GpuModel};
use super::nvidia_smi::{self, InUse, Scope};
use crate::sim::time::SimTime;

/// name, ID, instance limit, memory MiB, SMs, placements: one row per profile.
type Row = (&'static str, u32, u8, u64, u32, &'static [u8]);

fn check(model: &str, rows: &[Row]) {
    let model = model::find(model).unwrap_or_else(|| panic!("{model} is in models.yaml"));
    let mig = model.mig.as_ref().expect("MIG-capable");
    assert_eq!((mig.compute_slices, mig.memory_slices), (7, 8));
    let got: Vec<Row> = mig
        .profiles
        .iter()
        .map(|p| {
            let placements: &'static [u8] = p.placements.clone().leak();
            (&*p.name.clone().leak(), p.id, p.instances, p.memory_mib, p.multiprocessors, placements)
        })
        .collect();
    assert_eq!(got, rows, "{}", model.name);
    for p in &mig.profiles {
        let mut preferred = p.preferred_placements();
        preferred.sort_unstable();
        assert_eq!(preferred, p.placements, "{} {}: the preference orders the placements", model.name, p.name);
        assert!(!p.source.is_empty());
    }
}

const ONE: &[u8] = &[0, 1, 2, 3, 4, 5, 6];

#[test]
fn a100_40gb_profiles_are_the_user_guides() {
    check(
        "A100-SXM4-40GB",
        &[
            ("1g.5gb", 19, 7, 4864, 14, ONE),
            ("1g.5gb+me", 20, 1, 4864, 14, ONE),
            ("1g.10gb", 15, 4, 9984, 14, &[0, 2, 4, 6]),
            ("2g.10gb", 14, 3, 9984, 28, &[0, 2, 4]),
            ("3g.20gb", 9, 2, 20096, 42, &[0, 4]),
            ("4g.20gb", 5, 1, 20096, 56, &[0]),
            ("7g.40gb", 0, 1, 40320, 98, &[0]),
        ],
    );
}

#[test]
fn a100_80gb_profiles() {
    check(
        "A100-SXM4-80GB",
        &[
            ("1g.10gb", 19, 7, 9728, 14, ONE),
            ("1g.10gb+me", 20, 1, 9728, 14, ONE),
            ("1g.20gb", 15, 4, 19968, 14, &[0, 2, 4, 6]),
            ("2g.20gb", 14, 3, 19968, 28, &[0, 2, 4]),
            ("3g.40gb", 9, 2, 40192, 42, &[0, 4]),
            ("4g.40gb", 5, 1, 40192, 56, &[0]),
            ("7g.80gb", 0, 1, 80896, 98, &[0]),
        ],
    );
}

#[test]
fn h100_profiles() {
    check(
        "H100-SXM5-80GB",
        &[
            ("1g.10gb", 19, 7, 9984, 16, ONE),
            ("1g.10gb+me", 20, 1, 9984, 16, ONE),
            ("1g.20gb", 15, 4, 20096, 26, &[0, 2, 4, 6]),
            ("2g.20gb", 14, 3, 20096, 32, &[0, 2, 4]),
            ("3g.40gb", 9, 2, 40448, 60, &[0, 4]),
            ("4g.40gb", 5, 1, 40448, 64, &[0]),
            ("7g.80gb", 0, 1, 81152, 132, &[0]),
        ],
    );
}

#[test]
fn h200_profiles() {
    check(
        "H200-SXM5-141GB",
        &[
            ("1g.18gb", 19, 7, 16384, 16, ONE),
            ("1g.18gb+me", 20, 1, 16384, 16, ONE),
            ("1g.35gb", 15, 4, 33280, 26, &[0, 2, 4, 6]),
            ("2g.35gb", 14, 3, 33280, 32, &[0, 2, 4]),
            ("3g.71gb", 9, 2, 71424, 60, &[0, 4]),
            ("4g.71gb", 5, 1, 71424, 64, &[0]),
            ("7g.141gb", 0, 1, 143360, 132, &[0]),
        ],
    );
}

#[test]
fn small_cards_have_no_mig() {
    for name in ["L4", "T4"] {
        let model = model::find(name).unwrap();
        assert!(model.mig.is_none() && !model.nvlink, "{name}");
    }
    assert_eq!(model::find("NVIDIA L4").map(|m| m.product.as_str()), Some("NVIDIA L4"));
    assert_eq!(model::find("t4").map(|m| m.product.as_str()), Some("Tesla T4"));
}

/// Creates `profiles` in order with the driver's own placement: the resulting `start:size`
/// spans, or the rule that refused.
fn layout(model: &GpuModel, profiles: &[&str]) -> Result<Vec<String>, String> {
    let geometry = model.mig.as_ref().unwrap();
    let mut layout = MigLayout::default();
    for name in profiles {
        let profile = model.profile(name).unwrap();
        layout.create(geometry, profile, None).map_err(|r| format!("{name}: {}", r.rule))?;
    }
    let mut spans: Vec<(u8, String)> =
        layout.gpu_instances.iter().map(|gi| (gi.start, format!("{}:{}#{}", gi.start, gi.size, gi.id))).collect();
    spans.sort();
    Ok(spans.into_iter().map(|(_, s)| s).collect())
}

/// The layouts of the user guide's examples and its "valid combinations", and what it says
/// does not fit. Each span is `start:size#GI`.
#[test]
fn layouts_that_fit_and_layouts_that_do_not() {
    let a100 = model::find("A100-SXM4-40GB").unwrap();
    let h100 = model::find("H100-SXM5-80GB").unwrap();
    let cases: &[(&GpuModel, &[&str], Result<&str, &str>)] = &[
        (a100, &["3g.20gb", "3g.20gb"], Ok("0:4#1 4:4#2")),
        (a100, &["4g.20gb", "3g.20gb"], Ok("0:4#1 4:4#2")),
        (a100, &["3g.20gb", "1g.5gb", "2g.10gb", "1g.5gb"], Ok("0:1#7 1:1#8 2:2#4 4:4#2")),
        (a100, &["1g.5gb", "1g.5gb", "2g.10gb", "3g.20gb"], Err("3g.20gb: no free placement")),
        (
            a100,
            &["2g.10gb", "1g.5gb", "1g.5gb", "1g.5gb", "1g.5gb", "1g.5gb"],
            Ok("0:1#7 1:1#8 2:1#9 3:1#10 4:2#5 6:1#13"),
        ),
        (a100, &["1g.5gb", "2g.10gb", "4g.20gb"], Ok("0:4#1 4:2#5 6:1#13")),
        (a100, &["2g.10gb", "2g.10gb", "2g.10gb", "1g.5gb"], Ok("0:2#3 2:2#4 4:2#5 6:1#13")),
        (a100, &["7g.40gb"], Ok("0:8#0")),
        (a100, &["7g.40gb", "1g.5gb"], Err("1g.5gb: no free placement")),
        (a100, &["1g.5gb"; 8], Err("1g.5gb: a GPU holds at most 7 instance(s) of 1g.5gb")),
        (a100, &["1g.5gb+me", "1g.5gb+me"], Err("1g.5gb+me: a GPU holds at most 1")),
        (a100, &["4g.20gb", "4g.20gb"], Err("4g.20gb: a GPU holds at most 1")),
        (a100, &["3g.20gb", "3g.20gb", "1g.5gb"], Err("1g.5gb: no free placement")),
        (a100, &["1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb"], Ok("0:2#3 2:2#4 4:2#5 6:2#6")),
        (h100, &["3g.40gb", "1g.10gb", "2g.20gb", "1g.10gb"], Ok("0:1#7 1:1#8 2:2#4 4:4#2")),
        (h100, &["3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"], Ok("0:2#3 2:1#9 3:1#10 4:4#2")),
        (h100, &["4g.40gb", "3g.40gb"], Ok("0:4#1 4:4#2")),
        (h100, &["1g.20gb", "1g.20gb", "1g.20gb", "1g.20gb", "1g.10gb"], Err("1g.10gb: no free placement")),
    ];
    for (model, profiles, want) in cases {
        let got = layout(model, profiles).map(|spans| spans.join(" "));
        match (want, &got) {
            (Ok(spans), Ok(g)) => assert_eq!(g, spans, "{} {profiles:?}", model.name),
            (Err(prefix), Err(e)) => assert!(e.starts_with(prefix), "{} {profiles:?}: {e}", model.name),
            _ => panic!("{} {profiles:?}: want {want:?}, got {got:?}", model.name),
        }
    }
}

#[test]
fn explicit_placements_are_refused_with_the_rule() {
    let a100 = model::find("A100-SXM4-40GB").unwrap();
    let geometry = a100.mig.as_ref().unwrap();
    let mut layout = MigLayout::default();
    let two = a100.profile("2g.10gb").unwrap();
    let three = a100.profile("3g.20gb").unwrap();
    assert_eq!(layout.create(geometry, two, Some(4)), Ok(5));
    let overlap = layout.create(geometry, three, Some(4)).unwrap_err();
    assert_eq!(overlap.nvml, "Insufficient Resources");
    assert_eq!(overlap.rule, "3g.20gb at 4:4 overlaps GPU instance 5 (2g.10gb at 4:2)");
    let misplaced = layout.create(geometry, three, Some(2)).unwrap_err();
    assert_eq!(misplaced.nvml, "Invalid Argument");
    assert_eq!(misplaced.rule, "3g.20gb may start only at memory slice 0 or 4, not 2");
}

fn a100_host(count: u32) -> GpuMachine {
    GpuMachine::new("gpu-1", &GpuInventory::parse(&format!("A100-SXM4-40GBx{count}")).unwrap(), MigStrategy::Mixed)
}

fn smi(machine: &mut GpuMachine, line: &str) -> (String, i32) {
    let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    nvidia_smi::run(machine, Scope::Host, &InUse::default(), &args, SimTime::ZERO)
}

#[test]
fn nvidia_smi_creates_instances_as_the_user_guide_shows() {
    let mut host = a100_host(1);
    assert_eq!(smi(&mut host, "mig -lgi"), ("No MIG-enabled devices found.\n".into(), 6));
    let (out, code) = smi(&mut host, "-i 0 -mig 1");
    assert_eq!((out.as_str(), code), ("Enabled MIG Mode for GPU 00000000:07:00.0\nAll done.\n", 0));
    assert_eq!(
        smi(&mut host, "mig -cgi 9,3g.20gb -C").0,
        "Successfully created GPU instance ID  2 on GPU  0 using profile MIG 3g.20gb (ID  9)\n\
         Successfully created compute instance ID  0 on GPU  0 GPU instance ID  2 using profile MIG 3g.20gb (ID  2)\n\
         Successfully created GPU instance ID  1 on GPU  0 using profile MIG 3g.20gb (ID  9)\n\
         Successfully created compute instance ID  0 on GPU  0 GPU instance ID  1 using profile MIG 3g.20gb (ID  2)\n"
    );
    assert_eq!(smi(&mut host, "mig -dci").1, 0);
    assert_eq!(
        smi(&mut host, "mig -dgi").0,
        "Successfully destroyed GPU instance ID  1 from GPU  0\nSuccessfully destroyed GPU instance ID  2 from GPU  0\n"
    );
    assert_eq!(
        smi(&mut host, "mig -cgi 19,19,14,9"),
        (
            "Successfully created GPU instance ID 13 on GPU  0 using profile MIG 1g.5gb (ID 19)\n\
             Successfully created GPU instance ID 11 on GPU  0 using profile MIG 1g.5gb (ID 19)\n\
             Successfully created GPU instance ID  3 on GPU  0 using profile MIG 2g.10gb (ID 14)\n\
             Unable to create a GPU instance on GPU  0 using profile 9: Insufficient Resources\n\
             Failed to create GPU instances: Insufficient Resources\n"
                .to_string(),
            255
        )
    );
    assert_eq!(smi(&mut host, "mig -dgi -gi 3").1, 0);
    assert!(
        smi(&mut host, "mig -cgi 7g.80gb")
            .0
            .ends_with("using profile 7g.80gb: Invalid Argument\nFailed to create GPU instances: Invalid Argument\n")
    );
}

#[test]
fn nvidia_smi_lists_profiles_placements_and_instances_byte_for_byte() {
    let mut host = a100_host(1);
    smi(&mut host, "-mig 1");
    let (lgip, _) = smi(&mut host, "mig -lgip");
    let lines: Vec<&str> = lgip.lines().collect();
    assert_eq!(lines[0], "+-------------------------------------------------------------------------------+");
    assert_eq!(lines[2], "| GPU   Name               ID    Instances   Memory     P2P    SM    DEC   ENC  |");
    assert_eq!(lines[5], "|   0  MIG 1g.5gb          19     7/7        4.75       No     14     0     0   |");
    assert_eq!(lines[6], "|                                                               1     0     0   |");
    assert_eq!(lines[17], "|   0  MIG 3g.20gb          9     2/2        19.62      No     42     2     0   |");
    assert_eq!(lines[23], "|   0  MIG 7g.40gb          0     1/1        39.38      No     98     5     0   |");
    smi(&mut host, "mig -cgi 4g.20gb");
    let (lgip, _) = smi(&mut host, "mig -lgip");
    let free: Vec<&str> = lgip.lines().filter(|l| l.contains("MIG ")).map(|l| l[34..39].trim()).collect();
    assert_eq!(free, ["3/7", "1/1", "2/4", "1/3", "1/2", "0/1", "0/1"], "the user guide's counts after a 4g");
    assert_eq!(
        smi(&mut host, "mig -lgipp").0,
        "GPU  0 Profile ID 19 Placements: {0,1,2,3,4,5,6}:1\nGPU  0 Profile ID 20 Placements: {0,1,2,3,4,5,6}:1\n\
         GPU  0 Profile ID 15 Placements: {0,2,4,6}:2\nGPU  0 Profile ID 14 Placements: {0,2,4}:2\n\
         GPU  0 Profile ID  9 Placements: {0,4}:4\nGPU  0 Profile ID  5 Placement : {0}:4\nGPU  0 Profile ID  0 Placement : {0}:8\n"
    );
    smi(&mut host, "mig -cgi 2g.10gb,1g.5gb -C");
    smi(&mut host, "mig -cci -gi 1");
    assert_eq!(
        smi(&mut host, "mig -lgi").0,
        "+---------------------------------------------------------+\n\
         | GPU instances:                                          |\n\
         | GPU   Name               Profile  Instance   Placement  |\n\
         |                            ID       ID       Start:Size |\n\
         |=========================================================|\n\
         |   0  MIG 1g.5gb            19       13          6:1     |\n\
         +---------------------------------------------------------+\n\
         |   0  MIG 2g.10gb           14        5          4:2     |\n\
         +---------------------------------------------------------+\n\
         |   0  MIG 4g.20gb            5        1          0:4     |\n\
         +---------------------------------------------------------+\n"
    );
    let lci = smi(&mut host, "mig -lci").0;
    assert!(lci.contains("|   0      1       MIG 4g.20gb          3         0          0:4     |\n"), "{lci}");
}

#[test]
fn inside_a_container_only_its_devices_are_seen() {
    let mut host = a100_host(2);
    host.strategy = MigStrategy::Mixed;
    super::mig_manager::apply(&mut host, "all-1g.5gb").unwrap();
    let devices = super::device_plugin::devices(&host);
    assert_eq!(devices.len(), 14);
    let given = [devices[9].clone()];
    let args = vec!["-L".to_string()];
    let (out, _) =
        nvidia_smi::run(&mut host.clone(), Scope::Container(&given), &InUse::default(), &args, SimTime::ZERO);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], format!("GPU 0: NVIDIA A100-SXM4-40GB (UUID: {})", host.gpus[1].uuid));
    assert_eq!(lines[1], format!("  MIG 1g.5gb      Device  0: (UUID: {})", given[0].id));
}

#[test]
fn the_default_table_has_the_gpu_and_mig_boxes() {
    let mut host = a100_host(1);
    smi(&mut host, "-mig 1");
    smi(&mut host, "mig -cgi 4g.20gb,2g.10gb,1g.5gb -C");
    let (table, code) = smi(&mut host, "");
    assert_eq!(code, 0);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines[0], "Wed Jan  1 00:00:00 2025       ", "{table}");
    assert_eq!(lines[2], "| NVIDIA-SMI 580.126.09             Driver Version: 580.126.09     CUDA Version: 13.0     |");
    assert_eq!(lines[8], "|   0  NVIDIA A100-SXM4-40GB          On  |   00000000:07:00.0 Off |                   On |");
    assert_eq!(lines[9], "| N/A   30C    P0             44W /  400W |     249MiB /  40960MiB |     N/A      Default |");
    assert_eq!(
        lines[10],
        "|                                         |                        |              Enabled |"
    );
    assert!(table.contains("|  0    1   0   0  |             142MiB / 20096MiB    | 56      0 |  4   0    2    0    0 |\n|                  |               0MiB / 12211MiB    |           |                       |\n"), "{table}");
    assert!(
        table.contains("|  0   13   0   2  |              36MiB /  4864MiB    | 14      0 |  1   0    0    0    0 |\n"),
        "{table}"
    );
    assert!(lines.iter().all(|l| l.is_empty() || l.len() == 91 || l.starts_with("Wed")), "{table}");
}

#[test]
fn uuids_are_stable_and_shaped_as_the_drivers() {
    let a = Gpu::new(model::find("H100-SXM5-80GB").unwrap(), "gpu-1", 0);
    let b = Gpu::new(model::find("H100-SXM5-80GB").unwrap(), "gpu-1", 0);
    assert_eq!(a.uuid, b.uuid);
    assert_eq!(a.uuid.len(), "GPU-".len() + 36);
    assert_ne!(a.uuid, Gpu::new(a.model, "gpu-1", 1).uuid);
}

#[test]
fn time_slicing_replicates_only_the_resources_it_lists() {
    let mut host = a100_host(2);
    smi(&mut host, "-i 0 -mig 1");
    smi(&mut host, "mig -cgi 9,9 -C -i 0");
    let config = "version: v1\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/mig-3g.20gb\n      replicas: 3\n";
    host.time_slicing = super::device_plugin_config::parse(config).unwrap().time_slicing;
    let devices = super::device_plugin::devices(&host);
    let capacity: Vec<(String, i64)> = super::device_plugin::capacity(&devices).into_iter().collect();
    assert_eq!(capacity, [("nvidia.com/gpu".to_string(), 1), ("nvidia.com/mig-3g.20gb".to_string(), 6)]);
    // Replica-major: the first two 3g.20gb picks are different slices, the third shares one.
    let ids: Vec<&str> = devices.iter().filter(|d| d.resource.ends_with("3g.20gb")).map(|d| d.id.as_str()).collect();
    assert!(ids[0].ends_with("::0") && ids[1].ends_with("::0") && ids[2].ends_with("::1"), "{ids:?}");
    assert_eq!(ids[0].trim_end_matches("::0"), ids[2].trim_end_matches("::1"));
    let labels = super::feature_discovery::labels(&host);
    assert_eq!(labels.get("nvidia.com/mig-3g.20gb.replicas"), Some("3"));
    assert_eq!(labels.get("nvidia.com/mig-3g.20gb.product"), Some("NVIDIA-A100-SXM4-40GB-MIG-3g.20gb-SHARED"));
    assert_eq!(labels.get("nvidia.com/gpu.product"), Some("NVIDIA-A100-SXM4-40GB"));
}

#[test]
fn the_best_connected_gpus_are_preferred_and_an_nvswitch_board_is_all_one() {
    use super::topology::{Link, best_set, link};
    let mut cards = GpuMachine::new("t4-box", &GpuInventory::parse("T4x8").unwrap(), MigStrategy::None);
    cards.cpus = 64;
    assert_eq!(link(&cards, 0, 1), Link::SingleSwitch);
    assert_eq!(link(&cards, 0, 2), Link::NumaNode);
    assert_eq!(link(&cards, 3, 4), Link::System);
    assert_eq!(super::topology::cpu_affinity(&cards, 5), "32-63");
    // 1, 2 and 3 are free next to each other, but only 2 and 3 share a switch.
    assert_eq!(best_set(&cards, &[1, 2, 3, 5], 2), Some(vec![2, 3]));
    // Four of one socket beat a set that crosses to the other.
    assert_eq!(best_set(&cards, &[0, 1, 2, 3, 4, 5], 4), Some(vec![0, 1, 2, 3]));
    assert_eq!(best_set(&cards, &[6], 2), None);
    let board = GpuMachine::new("dgx", &GpuInventory::parse("H100-SXM5-80GBx8").unwrap(), MigStrategy::None);
    assert_eq!(link(&board, 0, 7), Link::NvLink(18));
    assert_eq!(best_set(&board, &[1, 4, 6, 7], 2), Some(vec![1, 4]), "all pairs equal: the lowest first");
}
