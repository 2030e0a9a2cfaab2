# A single-node Slurm on localhost for a test (sourced by tests/slurm/slurm_test.sh and
# tests/server/worker_slurm_test.sh): munged
# with a generated key, slurmctld and slurmd with a generated slurm.conf (one CPU-only node, partition "judge", no
# accounting), their state, spool, sockets and logs under $tmp/slurm and their paths on the command line, so nothing
# under /etc is read or written. Every process started, and every job process, carries $marker in its environment.
#   slurm_skip_reason          prints why Slurm cannot start here (no daemons, not root); nothing where it can
#   slurm_start                starts the daemons and waits for the node to be idle; 1 (logs printed) if not
#   slurm COMMAND...           a Slurm client command against this cluster (SLURM_CONF set)
#   slurm_stop                 cancels every job, stops the daemons, kills stray job processes (call it at exit)
slurm_pids=()
slurm_dir=$tmp/slurm
conf=$slurm_dir/slurm.conf
marker=HPCJUDGE_SLURM_TEST=$slurm_dir

slurm() { env SLURM_CONF="$conf" "$@"; }

slurm_skip_reason() {
  local cmd
  for cmd in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    PATH=$PATH:/usr/sbin:/sbin command -v "$cmd" >/dev/null ||
      { echo "$cmd not found (apt-get install munge slurmctld slurmd slurm-client)"; return; }
  done
  [ "$(id -u)" -eq 0 ] || echo "needs root (slurmd runs jobs as their user)"
}

slurm_free_port() { local p=$1; while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done; echo "$p"; }

slurm_write_conf() {  # NODE
  local ctld_port slurmd_port
  ctld_port=$(slurm_free_port 16817)
  slurmd_port=$(slurm_free_port $((ctld_port + 1)))
  : >"$slurm_dir/plugstack.conf"
  cat >"$conf" <<CONF
ClusterName=hpcjudgetest
SlurmctldHost=$1(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$slurm_dir/munge/munge.socket
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.log
PlugStackConfig=$slurm_dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MinJobAge=3600
MailProg=/bin/true
NodeName=$1 NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=judge Nodes=$1 Default=YES MaxTime=INFINITE State=UP
CONF
}

slurm_start() {
  export PATH=$PATH:/usr/sbin:/sbin
  mkdir -p "$slurm_dir/munge" "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/log"
  chmod 755 "$tmp" "$slurm_dir"  # munged wants its socket's folders searchable by all
  dd if=/dev/urandom of="$slurm_dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$slurm_dir/munge/munge.key"
  local socket=$slurm_dir/munge/munge.socket node state=
  env "$marker" munged --foreground --key-file="$slurm_dir/munge/munge.key" --socket="$socket" \
    --pid-file="$slurm_dir/munge/munged.pid" --log-file="$slurm_dir/munge/munged.log" \
    --seed-file="$slurm_dir/munge/munged.seed" >"$slurm_dir/munge/munged.out" 2>&1 &
  slurm_pids+=($!)
  for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
  [ -S "$socket" ] || { echo "munged did not start"; tail -n 15 "$slurm_dir/munge/munged.out"; return 1; }
  node=$(hostname -s 2>/dev/null)
  [ -n "$node" ] || node=localhost
  slurm_write_conf "$node"
  env "$marker" slurmctld -D -f "$conf" >"$slurm_dir/log/slurmctld.out" 2>&1 &
  slurm_pids+=($!)
  env "$marker" slurmd -D -f "$conf" -N "$node" >"$slurm_dir/log/slurmd.out" 2>&1 &
  slurm_pids+=($!)
  for _ in $(seq 60); do
    state=$(slurm sinfo -h -n "$node" -o %t 2>/dev/null)
    [ "$state" = idle ] && return 0
    sleep 1
  done
  echo "the node is not idle (state '$state')"
  tail -n 15 "$slurm_dir/log/slurmctld.log" "$slurm_dir/log/slurmd.log" 2>/dev/null
  return 1
}

slurm_stop() {
  local pid env i
  if [ ${#slurm_pids[@]} -gt 1 ]; then  # slurmctld is up: cancel whatever is left
    slurm scancel --user=root >/dev/null 2>&1
    for _ in $(seq 20); do [ -z "$(slurm squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  for ((i = ${#slurm_pids[@]} - 1; i >= 0; i--)); do kill "${slurm_pids[i]}" 2>/dev/null; done
  for pid in "${slurm_pids[@]}"; do
    for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  slurm_pids=()
  for env in /proc/[0-9]*/environ; do  # stray slurmstepd or job processes
    if grep -qzxF "$marker" "$env" 2>/dev/null; then
      pid=${env#/proc/}; kill -KILL "${pid%/environ}" 2>/dev/null
    fi
  done
}
