<#
.SYNOPSIS
  Runs every DxDispatch model that `dmlcts export --dxdispatch DIR` wrote, with
  dxdispatch.exe on this machine's GPU (DirectML), and leaves in DIR what
  `dmlcts check --results DIR` reads.  docs/dxdispatch.md is the manual.

.DESCRIPTION
  For each case of DIR\request.json (its "id" names DIR\<id>.dxdispatch.json)
  the script runs, in DIR (the models' writeFile targets are relative to the
  working directory):

      dxdispatch.exe [-d] [--dml_feature_level X.Y] <id>.dxdispatch.json

  and keeps its console output in <id>.dxdispatch.log and its exit status in
  <id>.dxdispatch.rc.  The output buffers land as <id>.<binding>.npy.  It judges
  nothing: dmlcts check, on any machine, turns those files into verdicts
  (a negative case passes when DirectML refused to create the operator).

  --dml_feature_level is passed only when this dxdispatch.exe lists it in its
  --help; then each case runs at its own feature level, as the reference did.
  Without it the device's level applies, and cases whose semantics changed with
  the level (negative indices before 3_0) may differ.

.PARAMETER Dir
  The exported directory (copied over from where dmlcts ran).
.PARAMETER DxDispatch
  Path of dxdispatch.exe (default: the one on PATH).
.PARAMETER Adapter
  Substring of the adapter to use (dxdispatch -a); default: dxdispatch's choice.
.PARAMETER DebugLayers
  Run with -d: the D3D12 and DirectML debug layers print why a desc is refused.
.PARAMETER TimeoutSeconds
  Per model; a model still running then is killed and recorded as exit 124.

.EXAMPLE
  .\run-dxdispatch.ps1 -Dir C:\dmlcts\corpus -DxDispatch C:\tools\dxdispatch.exe -DebugLayers
#>
param(
    [Parameter(Mandatory = $true)][string]$Dir,
    [string]$DxDispatch = "dxdispatch.exe",
    [string]$Adapter = "",
    [switch]$DebugLayers,
    [int]$TimeoutSeconds = 120
)
$ErrorActionPreference = "Stop"

$Dir = (Resolve-Path -LiteralPath $Dir).Path
$requestPath = Join-Path $Dir "request.json"
if (-not (Test-Path -LiteralPath (Join-Path $Dir "dxdispatch.json"))) {
    throw "$Dir holds no dxdispatch.json: export it with dmlcts export --dxdispatch $Dir ..."
}
$exe = (Get-Command $DxDispatch -ErrorAction Stop).Source
$request = Get-Content -LiteralPath $requestPath -Raw | ConvertFrom-Json

# Does this dxdispatch know --dml_feature_level?
$help = (& $exe --help 2>&1 | Out-String)
$hasLevel = $help -match "dml_feature_level"
if (-not $hasLevel) {
    Write-Warning "$exe has no --dml_feature_level: every case runs at the device's feature level"
}

$total = $request.cases.Count
$n = 0
$failedToRun = 0
Push-Location -LiteralPath $Dir
try {
    foreach ($case in $request.cases) {
        $n++
        $id = $case.id
        $model = "$id.dxdispatch.json"
        $log = Join-Path $Dir "$id.dxdispatch.log"
        $rcFile = Join-Path $Dir "$id.dxdispatch.rc"
        Remove-Item -LiteralPath $log, $rcFile -ErrorAction SilentlyContinue
        $arguments = @()
        if ($DebugLayers) { $arguments += "-d" }
        if ($Adapter) { $arguments += @("-a", $Adapter) }
        if ($hasLevel) { $arguments += @("--dml_feature_level", ($case.feature_level -replace "_", ".")) }
        $arguments += $model
        Write-Progress -Activity "dxdispatch" -Status "$n of $total  $($case.name)" `
            -PercentComplete (100 * $n / [Math]::Max($total, 1))
        $p = Start-Process -FilePath $exe -ArgumentList $arguments -WorkingDirectory $Dir `
            -NoNewWindow -PassThru -RedirectStandardOutput $log `
            -RedirectStandardError "$log.err"
        $null = $p.Handle # without it, ExitCode can read as null once the process is gone
        if (-not $p.WaitForExit(1000 * $TimeoutSeconds)) {
            $p.Kill()
            $p.WaitForExit()
            $rc = 124
            Add-Content -LiteralPath $log "dxdispatch: killed after $TimeoutSeconds s"
        } else {
            $rc = $p.ExitCode
        }
        if (Test-Path -LiteralPath "$log.err") {
            Get-Content -LiteralPath "$log.err" | Add-Content -LiteralPath $log
            Remove-Item -LiteralPath "$log.err"
        }
        Set-Content -LiteralPath $rcFile -Value "$rc" -Encoding ascii
        if ($rc -ne 0 -and $case.action -ne "create") { $failedToRun++ }
    }
} finally {
    Pop-Location
}
Write-Progress -Activity "dxdispatch" -Completed

Write-Host "ran $total model(s) in $Dir; $failedToRun positive case(s) did not run to the end (their logs say why)."
Write-Host "Judge them (here, or back on the machine that exported them, after copying $Dir back):"
Write-Host "  dmlcts check --results `"$Dir`" <the same selection as the export>"
