// The demo's two exams, one in English and one in Chinese, each with ten questions (two of each type) and five
// candidates. Plain data, parsed by the contract's schemas, so a test can hold the rules to the buttons'
// words (scripts/demo/demo-exams.test.ts): a rule that names a button names it as the page reads in that language.
import { EnrollCandidatesSchema } from "@/lib/shared/schemas/enrollments";
import { CreateExamSchema } from "@/lib/shared/schemas/exams";

const ENGLISH = CreateExamSchema.parse({
  title: "Holdfast demo exam",
  description: "Networking fundamentals: ten questions that show every question type Holdfast supports.",
  rules: [
    "You have 30 minutes from the moment you press “Start”; the clock is kept by the server.",
    "Work on your own. Notes, other people and AI assistants are not allowed.",
    "Your personal link works on any device. If your laptop fails, open the same link on another one.",
    "Numeric answers: digits only, no units.",
    "When you are done, press “Review and submit”, check the list, then “Submit now”.",
  ].join("\n"),
  durationSeconds: 30 * 60,
  graceSeconds: 60,
  // No opensAt/closesAt: the demo exams are always open.
  status: "published",
  questions: [
    {
      type: "single_choice",
      prompt: "Which layer of the OSI model routes packets between networks?",
      options: [
        { id: "a", label: "Data link layer" },
        { id: "b", label: "Network layer" },
        { id: "c", label: "Transport layer" },
        { id: "d", label: "Session layer" },
      ],
      answerKey: "b",
      points: 1,
    },
    {
      type: "single_choice",
      prompt: "An HTTP API answers 409. What does that status code mean?",
      options: [
        { id: "a", label: "Not Found" },
        { id: "b", label: "Conflict" },
        { id: "c", label: "Too Many Requests" },
        { id: "d", label: "Gone" },
      ],
      answerKey: "b",
      points: 1,
    },
    {
      type: "multiple_choice",
      prompt: "Which of these IPv4 ranges are private address space under RFC 1918? Select all that apply.",
      options: [
        { id: "a", label: "10.0.0.0/8" },
        { id: "b", label: "172.16.0.0/12" },
        { id: "c", label: "192.168.0.0/16" },
        { id: "d", label: "100.64.0.0/10" },
      ],
      answerKey: ["a", "b", "c"],
      points: 2,
    },
    {
      type: "multiple_choice",
      prompt: "Which HTTP methods are idempotent by definition (RFC 9110)? Select all that apply.",
      options: [
        { id: "get", label: "GET" },
        { id: "post", label: "POST" },
        { id: "put", label: "PUT" },
        { id: "delete", label: "DELETE" },
        { id: "patch", label: "PATCH" },
      ],
      answerKey: ["get", "put", "delete"],
      points: 2,
    },
    {
      type: "short_text",
      prompt: "Which command-line tool sends ICMP echo requests to check whether a host is reachable?",
      answerKey: "ping",
      points: 1,
    },
    {
      type: "short_text",
      prompt: "Which protocol translates domain names such as example.com into IP addresses? Give its acronym.",
      answerKey: "DNS",
      points: 1,
    },
    {
      type: "essay",
      prompt: "Explain the difference between TCP and UDP. For each, name one application that suits it and say why.",
      points: 5,
    },
    {
      type: "essay",
      prompt:
        "A candidate's laptop loses its Wi-Fi for ten minutes in the middle of an online exam. Describe what a " +
        "well-built exam client should do, during the outage and after it, so that no answer is lost and nothing " +
        "is submitted twice.",
      points: 5,
    },
    {
      type: "numeric",
      prompt: "How many usable host addresses does an IPv4 /26 subnet provide?",
      answerKey: 62,
      tolerance: 0,
      points: 2,
    },
    {
      type: "numeric",
      prompt:
        "A 250 MB file is downloaded over a link that delivers a steady 100 Mbit/s. How many seconds does the " +
        "download take? (1 byte = 8 bits, 1 MB = 1,000,000 bytes)",
      answerKey: 20,
      tolerance: 0.5,
      points: 2,
    },
  ],
});

const CHINESE = CreateExamSchema.parse({
  title: "Holdfast 演示考试（中文）",
  description: "计算机网络基础：十道题，涵盖 Holdfast 支持的全部题型。",
  rules: [
    "按下“开始”后，您有 30 分钟作答；计时以服务器时钟为准。",
    "请独立作答，不得使用笔记、他人帮助或 AI 助手。",
    "您的个人链接可在任何设备上打开。如果笔记本电脑出现故障，请在另一台设备上打开同一链接继续作答。",
    "数值题只填数字，不带单位。",
    "作答完毕后，请按“检查并交卷”，核对列表，再按“立即交卷”。",
  ].join("\n"),
  durationSeconds: 30 * 60,
  graceSeconds: 60,
  status: "published",
  questions: [
    {
      type: "single_choice",
      prompt: "OSI 模型中，负责在不同网络之间路由数据包的是哪一层？",
      options: [
        { id: "a", label: "数据链路层" },
        { id: "b", label: "网络层" },
        { id: "c", label: "传输层" },
        { id: "d", label: "会话层" },
      ],
      answerKey: "b",
      points: 1,
    },
    {
      type: "single_choice",
      prompt: "某 HTTP 接口返回状态码 409，它的含义是什么？",
      options: [
        { id: "a", label: "未找到（Not Found）" },
        { id: "b", label: "冲突（Conflict）" },
        { id: "c", label: "请求过多（Too Many Requests）" },
        { id: "d", label: "已删除（Gone）" },
      ],
      answerKey: "b",
      points: 1,
    },
    {
      type: "multiple_choice",
      prompt: "下列 IPv4 地址段中，哪些属于 RFC 1918 规定的私有地址？（多选）",
      options: [
        { id: "a", label: "10.0.0.0/8" },
        { id: "b", label: "172.16.0.0/12" },
        { id: "c", label: "192.168.0.0/16" },
        { id: "d", label: "100.64.0.0/10" },
      ],
      answerKey: ["a", "b", "c"],
      points: 2,
    },
    {
      type: "multiple_choice",
      prompt: "按 RFC 9110 的定义，下列哪些 HTTP 方法是幂等的？（多选）",
      options: [
        { id: "get", label: "GET" },
        { id: "post", label: "POST" },
        { id: "put", label: "PUT" },
        { id: "delete", label: "DELETE" },
        { id: "patch", label: "PATCH" },
      ],
      answerKey: ["get", "put", "delete"],
      points: 2,
    },
    {
      type: "short_text",
      prompt: "哪个命令行工具通过发送 ICMP 回显请求来检查主机是否可达？",
      answerKey: "ping",
      points: 1,
    },
    {
      type: "short_text",
      prompt: "把 example.com 这样的域名解析为 IP 地址的协议叫什么？请写出其英文缩写。",
      answerKey: "DNS",
      points: 1,
    },
    {
      type: "essay",
      prompt: "请说明 TCP 与 UDP 的区别，并各举一个适合使用它的应用，说明理由。",
      points: 5,
    },
    {
      type: "essay",
      prompt:
        "在线考试进行到一半时，某位考生的笔记本电脑断开 Wi-Fi 长达十分钟。请描述一个设计良好的考试客户端在断网期间和恢复之后" +
        "应当如何处理，才能保证作答不丢失、答卷不重复提交。",
      points: 5,
    },
    {
      type: "numeric",
      prompt: "一个 IPv4 /26 子网有多少个可用的主机地址？",
      answerKey: 62,
      tolerance: 0,
      points: 2,
    },
    {
      type: "numeric",
      prompt: "通过稳定 100 Mbit/s 的链路下载一个 250 MB 的文件，需要多少秒？（1 字节 = 8 位，1 MB = 1,000,000 字节）",
      answerKey: 20,
      tolerance: 0.5,
      points: 2,
    },
  ],
});

export type DemoExam = {
  /** The language its questions and rules are written in (the page's own words follow each reader's choice). */
  language: "en" | "zh-CN";
  exam: typeof ENGLISH;
  candidates: ReturnType<typeof EnrollCandidatesSchema.parse>;
};

export const DEMO_EXAMS: readonly DemoExam[] = [
  {
    language: "en",
    exam: ENGLISH,
    candidates: EnrollCandidatesSchema.parse({
      candidates: [
        { name: "Amara Okafor", email: "amara.okafor@example.com" },
        { name: "Lukas Becker", email: "lukas.becker@example.com" },
        { name: "Priya Natarajan", email: "priya.natarajan@example.com" },
        { name: "Mateo García", email: "mateo.garcia@example.com" },
        // Extra time, as an accessibility arrangement would grant: 15 minutes on top of the exam's 30.
        { name: "Hannah Kowalski", email: "hannah.kowalski@example.com", extraSeconds: 15 * 60 },
      ],
    }),
  },
  {
    language: "zh-CN",
    exam: CHINESE,
    candidates: EnrollCandidatesSchema.parse({
      candidates: [
        { name: "王芳", email: "wang.fang@example.com" },
        { name: "李娜", email: "li.na@example.com" },
        { name: "张伟", email: "zhang.wei@example.com" },
        { name: "刘洋", email: "liu.yang@example.com" },
        { name: "陈静", email: "chen.jing@example.com", extraSeconds: 15 * 60 },
      ],
    }),
  },
];
